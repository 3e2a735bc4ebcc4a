/**
 * Clients that never read their answers, the attack as it was found: a tenant posts POSTS texts of POST_CHARS
 * characters that JSON writes six bytes each (`\u0001`: about 12 MB of channel history for 30 posts) to its own
 * channel, then READERS connections ask for its history and never read a byte. Measured on the real gateway: a
 * neighbour's GET /session p99 before and while they hang (goal: within 1.5×), the gateway's RSS before, at its
 * peak while they hang, and once the write time-out cut them, and what /metrics counted (cut, refused). Two runs on
 * fresh worlds: the defaults (CHANNEL_PAGE_MAX_BYTES keeps each page near 1 MiB), and the page bound lifted (each
 * answer the whole ~12 MB: what the write time-out and ANSWER_BYTES_PER_PROCESS hold on their own).
 *
 *   flock /tmp/bench.lock npm run bench:slow-readers
 *   BENCH_SLOW_READERS (40), BENCH_SLOW_POSTS (30), BENCH_SLOW_POST_CHARS (65536), BENCH_SLOW_GETS (2000 each phase),
 *   BENCH_SLOW_WRITE_TIMEOUT_MS (the gateway's default, 30000); a smoke run: BENCH_SLOW_READERS=2 BENCH_SLOW_POSTS=2
 *   BENCH_SLOW_POST_CHARS=1000 BENCH_SLOW_GETS=20 BENCH_SLOW_WRITE_TIMEOUT_MS=1000
 */
import { sessionHeaders, pairOne } from './lib/fleet.js'
import { BenchReport, percentile } from './lib/results.js'
import { setting } from './lib/settings.js'
import { metric, neverReading, rssMb, rssPeak, sessionLatencies } from './lib/slow-readers.js'
import { postWorld } from '../test/support/system/harness.js'
import { withWorld } from './lib/world.js'

const READERS = setting('BENCH_SLOW_READERS', 40)
const POSTS = setting('BENCH_SLOW_POSTS', 30)
const POST_CHARS = setting('BENCH_SLOW_POST_CHARS', 65_536)
const GETS = setting('BENCH_SLOW_GETS', 2_000)
const WRITE_TIMEOUT_MS = setting('BENCH_SLOW_WRITE_TIMEOUT_MS', 30_000)

const ATTACKER = '15550400001'
const NEIGHBOUR = '15550400002'
const CHANNEL = '120363400000000001@newsletter'
/** No rate gets in the attack's way: what is measured is what answers hold, not how fast a tenant may ask. */
const ENV = {
  LOG_LEVEL: 'warn',
  SEND_RATE_PER_SECOND: '0',
  READ_RATE_PER_SECOND: '0',
  ANSWER_WRITE_TIMEOUT_MS: String(WRITE_TIMEOUT_MS),
}
const RUNS = { defaults: {}, 'page bound lifted': { CHANNEL_PAGE_MAX_BYTES: String(1024 ** 3) } } as const

const report = new BenchReport('slow-readers', {
  readers: READERS,
  posts: POSTS,
  postChars: POST_CHARS,
  gets: GETS,
  writeTimeoutMs: WRITE_TIMEOUT_MS,
})
const round = (v: number) => Number(v.toFixed(2))

for (const [run, env] of Object.entries(RUNS)) {
  await withWorld(`slow-readers-${run.replace(/ /g, '-')}`, { ...ENV, ...env }, async ({ gateway, sandbox }) => {
    await postWorld(sandbox.url, {
      channels: [{ id: CHANNEL, name: 'Long reads', created: '2024-01-01T00:00:00Z', owner: ATTACKER, messages: [] }],
    })
    const attacker = sessionHeaders(await pairOne(gateway.url, sandbox.url, ATTACKER))
    const neighbour = sessionHeaders(await pairOne(gateway.url, sandbox.url, NEIGHBOUR))
    const text = '\u0001'.repeat(POST_CHARS)
    for (let i = 0; i < POSTS; i++) {
      const sent = await fetch(`${gateway.url}/message`, {
        method: 'POST',
        headers: { ...attacker, 'content-type': 'application/json' },
        body: JSON.stringify({ newsletter: CHANNEL, type: 'text', text }),
      })
      if (!sent.ok) throw new Error(`POST /message: ${sent.status} ${await sent.text()}`)
    }
    const history = `/channel/message?channelId=${encodeURIComponent(CHANNEL)}`
    const page = await fetch(`${gateway.url}${history}`, { headers: attacker })
    const answerBytes = (await page.arrayBuffer()).byteLength

    await sessionLatencies(gateway.url, neighbour, Math.min(GETS, 200)) // warm
    const before = await sessionLatencies(gateway.url, neighbour, GETS)
    const pid = gateway.child.pid!
    const rssBefore = rssMb(pid)

    const peak = rssPeak(pid)
    const sockets = await Promise.all(
      Array.from({ length: READERS }, () => neverReading(gateway.url, history, attacker)),
    )
    const during = await sessionLatencies(gateway.url, neighbour, GETS)
    const refusedRead = await fetch(`${gateway.url}${history}`, { headers: neighbour })
    await refusedRead.arrayBuffer()
    // the write time-out cuts what is still waiting; then the memory is read again
    for (const end = Date.now() + WRITE_TIMEOUT_MS + 10_000; Date.now() < end; ) {
      if ((await metric(gateway.url, 'gateway_http_answer_bytes_waiting')) === 0) break
      await new Promise(r => setTimeout(r, 250))
    }
    const rssPeakMb = peak.stop()
    const rssAfter = rssMb(pid)
    const cut = await metric(gateway.url, 'gateway_http_answers_cut_total')
    const refused = await metric(gateway.url, 'gateway_http_answers_refused_total')
    for (const socket of sockets) socket.destroy()

    const p99Before = percentile(before.ms, 0.99)
    const p99During = percentile(during.ms, 0.99)
    const ratio = p99During / p99Before
    const where = `${run}: ${READERS} never-reading clients of a ${round(answerBytes / 1e6)} MB channel page`
    report.add({
      figure: `neighbour GET /session p99 while they hang ÷ before (${where})`,
      value: ratio,
      unit: '×',
      goal: '≤ 1.5',
      met: ratio <= 1.5,
      detail:
        `${GETS} sequential GETs each phase: p99 ${round(p99Before)} → ${round(p99During)} ms, p90 ` +
        `${round(percentile(before.ms, 0.9))} → ${round(percentile(during.ms, 0.9))} ms, ` +
        `${before.failed + during.failed} not 200; a neighbour's read meanwhile: ${refusedRead.status}`,
    })
    report.add({
      figure: `gateway RSS growth at its peak while they hang (${where})`,
      value: rssPeakMb - rssBefore,
      unit: 'MB',
      detail: `RSS ${round(rssBefore)} MB before, ${round(rssPeakMb)} MB at the peak, ${round(rssAfter)} MB once cut`,
    })
    report.add({ figure: `answers cut by the write time-out (${where})`, value: cut, unit: 'answers' })
    report.add({ figure: `reads refused by the answer budget (${where})`, value: refused, unit: 'requests' })
  })
}

report.finish()
