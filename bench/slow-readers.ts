/**
 * Clients that never read their answers, the attack as it was found: a tenant posts POSTS texts of POST_CHARS
 * characters that JSON writes six bytes each (`\u0001`: about 12 MB of channel history for 30 posts) to its own
 * channel, then READERS connections ask for its history and never read a byte. Measured on the real gateway: a
 * neighbour's GET /session p99 before and while they hang (goal: within 1.5×), in ROUNDS rounds of the two phases
 * alternated on the same gateway (this machine's noise moves a p99 from one run to the next: the figure is the
 * median of the rounds' ratios, with their spread), the gateway's RSS before, at its peak while they hang, and once
 * the write time-out cut the last round's readers, and what /metrics counted then (cut, refused). Two runs on
 * fresh worlds: the defaults (CHANNEL_PAGE_MAX_BYTES keeps each page near 1 MiB), and the page bound lifted (each
 * answer the whole ~12 MB: what the write time-out and ANSWER_BYTES_PER_PROCESS hold on their own). The sandbox runs
 * at nice 19, as in the other latency benches: each read has it encrypt and send ~2 MB of posts, the platform's work,
 * which on this 2-core machine would otherwise take the gateway's cores (in production the platform is elsewhere).
 *
 *   flock /tmp/bench.lock npm run bench:slow-readers
 *   BENCH_SLOW_READERS (40), BENCH_SLOW_POSTS (30), BENCH_SLOW_POST_CHARS (65536), BENCH_SLOW_GETS (2000 each phase),
 *   BENCH_SLOW_ROUNDS (5), BENCH_SLOW_WRITE_TIMEOUT_MS (the gateway's default, 30000); a smoke run:
 *   BENCH_SLOW_READERS=2 BENCH_SLOW_POSTS=2 BENCH_SLOW_POST_CHARS=1000 BENCH_SLOW_GETS=20 BENCH_SLOW_ROUNDS=2
 *   BENCH_SLOW_WRITE_TIMEOUT_MS=1000
 */
import { sessionHeaders, pairOne } from './lib/fleet.js'
import { BenchReport, median, percentile } from './lib/results.js'
import { setting } from './lib/settings.js'
import { metric, neverReading, rssMb, rssPeak, sessionLatencies } from './lib/slow-readers.js'
import { postWorld } from '../test/support/system/harness.js'
import { withWorld } from './lib/world.js'

const READERS = setting('BENCH_SLOW_READERS', 40)
const POSTS = setting('BENCH_SLOW_POSTS', 30)
const POST_CHARS = setting('BENCH_SLOW_POST_CHARS', 65_536)
const GETS = setting('BENCH_SLOW_GETS', 2_000)
const ROUNDS = setting('BENCH_SLOW_ROUNDS', 5)
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
  rounds: ROUNDS,
  writeTimeoutMs: WRITE_TIMEOUT_MS,
})
const round = (v: number) => Number(v.toFixed(2))

for (const [run, env] of Object.entries(RUNS)) {
  await withWorld(
    `slow-readers-${run.replace(/ /g, '-')}`,
    { ...ENV, ...env },
    async ({ gateway, sandbox }) => {
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
      const pid = gateway.child.pid!
      const rssBefore = rssMb(pid)
      const peak = rssPeak(pid)
      const rounds: { before: number[]; during: number[] }[] = []
      let failed = 0
      const counted = { cut: 0, refused: 0, refusedRead: 0 }
      for (let r = 0; r < ROUNDS; r++) {
        const before = await sessionLatencies(gateway.url, neighbour, GETS)
        const cutBefore = await metric(gateway.url, 'gateway_http_answers_cut_total')
        const refusedBefore = await metric(gateway.url, 'gateway_http_answers_refused_total')
        const sockets = await Promise.all(
          Array.from({ length: READERS }, () => neverReading(gateway.url, history, attacker)),
        )
        const during = await sessionLatencies(gateway.url, neighbour, GETS)
        rounds.push({ before: before.ms, during: during.ms })
        failed += before.failed + during.failed
        if (r === ROUNDS - 1) {
          const refusedRead = await fetch(`${gateway.url}${history}`, { headers: neighbour })
          await refusedRead.arrayBuffer()
          counted.refusedRead = refusedRead.status
          // the write time-out cuts what is still waiting of the last round; then the memory is read again
          await bytesDrained(gateway.url, WRITE_TIMEOUT_MS + 10_000)
          counted.cut = (await metric(gateway.url, 'gateway_http_answers_cut_total')) - cutBefore
          counted.refused = (await metric(gateway.url, 'gateway_http_answers_refused_total')) - refusedBefore
        }
        for (const socket of sockets) socket.destroy()
        await bytesDrained(gateway.url, 10_000) // the next round starts from nothing waiting
      }
      const rssPeakMb = peak.stop()
      const rssAfter = rssMb(pid)

      const at = (p: number) => (phase: 'before' | 'during') => rounds.map(r => percentile(r[phase], p))
      const ratios = rounds.map(r => percentile(r.during, 0.99) / percentile(r.before, 0.99))
      const ratio = median(ratios)
      const medianMs = (p: number, phase: 'before' | 'during') => round(median(at(p)(phase)))
      const phases = (p: number, name: string) => `${name} ${medianMs(p, 'before')} → ${medianMs(p, 'during')} ms`
      const where = `${run}: ${READERS} never-reading clients of a ${round(answerBytes / 1e6)} MB channel page`
      report.add({
        figure: `neighbour GET /session p99 while they hang ÷ before, median of ${ROUNDS} rounds (${where})`,
        value: ratio,
        unit: '×',
        goal: '≤ 1.5',
        met: ratio <= 1.5,
        detail:
          `${GETS} sequential GETs each phase, the phases alternated; medians of the rounds: ` +
          `${phases(0.5, 'p50')}, ${phases(0.9, 'p90')}, ${phases(0.99, 'p99')}; ` +
          `the rounds' p99 ratios ${ratios.map(round).join(', ')}; ${failed} not 200; ` +
          `a neighbour's read meanwhile: ${counted.refusedRead}`,
      })
      report.note(`rounds (${run})`, {
        p99BeforeMs: at(0.99)('before').map(round),
        p99DuringMs: at(0.99)('during').map(round),
        p90BeforeMs: at(0.9)('before').map(round),
        p90DuringMs: at(0.9)('during').map(round),
        p50BeforeMs: at(0.5)('before').map(round),
        p50DuringMs: at(0.5)('during').map(round),
      })
      report.add({
        figure: `gateway RSS growth at its peak while they hang (${where})`,
        value: rssPeakMb - rssBefore,
        unit: 'MB',
        detail: `RSS ${round(rssBefore)} MB before, ${round(rssPeakMb)} MB at the peak, ${round(rssAfter)} MB once cut`,
      })
      report.add({
        figure: `answers cut by the write time-out, last round (${where})`,
        value: counted.cut,
        unit: 'answers',
      })
      report.add({
        figure: `reads refused by the answer budget, last round (${where})`,
        value: counted.refused,
        unit: 'requests',
      })
    },
    [],
    undefined,
    { sandboxNice: 19 },
  )
}

/** Waits until no answer bytes wait in the gateway (drained, or cut by the write time-out), at most `ms`. */
async function bytesDrained(url: string, ms: number): Promise<void> {
  for (const end = Date.now() + ms; Date.now() < end; ) {
    if ((await metric(url, 'gateway_http_answer_bytes_waiting')) === 0) return
    await new Promise(r => setTimeout(r, 250))
  }
}

report.finish()
