/**
 * Soak: N connected sessions polling GET /session, showing typing and sending texts for a while, with the gateway's
 * RSS sampled throughout; the figure is RSS at the end beside RSS after the first minute. The clients run in their
 * own process (bench/drivers/soak-client.ts) and classify every answer; afterwards every acknowledged message is
 * looked up in the receiving sandbox phone's inbox, so "acknowledged" is checked, not assumed.
 *
 *   npm run bench:soak                 20 sessions, 3 minutes
 *   npm run bench:soak -- --long       100 sessions, 20 minutes (goal: RSS ≤ 1.1 × the first minute's)
 *   npm run bench:soak:500             500 sessions, 10 minutes (goal: zero unexpected errors, RSS flat,
 *                                      every send acknowledged or failed with a clear error)
 * Settings: BENCH_SOAK_SESSIONS, BENCH_SOAK_MINUTES, BENCH_SOAK_POLL_S (2.5), BENCH_SOAK_TYPING_S (15),
 * BENCH_SOAK_SEND_S (20: each session sends a text about this often), BENCH_SOAK_NAME (the results file's name:
 * `soak`; bench:soak:500 writes `soak-500`, so both figures are kept).
 */
import { fork } from 'node:child_process'
import path from 'node:path'
import type { SoakCounts, SoakMessage, SoakSpec } from './drivers/soak-client.js'
import { rssMb } from './lib/proc.js'
import { BenchReport } from './lib/results.js'
import { pairSessions } from './lib/sessions.js'
import { longHint, setting } from './lib/settings.js'
import { withWorld } from './lib/world.js'

const SESSIONS = setting('BENCH_SOAK_SESSIONS', 20, 100)
const MINUTES = setting('BENCH_SOAK_MINUTES', 3, 20)
const POLL_S = setting('BENCH_SOAK_POLL_S', 2.5)
const TYPING_S = setting('BENCH_SOAK_TYPING_S', 15)
const SEND_S = setting('BENCH_SOAK_SEND_S', 20)
const PEERS = ['15550000011', '15550000012', '15550000013', '15550000014', '15550000015']
const seconds = MINUTES * 60
/** "After the first minute", or a third of a run shorter than 3 minutes. */
const refSeconds = Math.min(60, seconds / 3)

const report = new BenchReport(process.env.BENCH_SOAK_NAME || 'soak', {
  sessions: SESSIONS,
  minutes: MINUTES,
  pollEverySeconds: POLL_S,
  typingEverySeconds: TYPING_S,
  sendEverySeconds: SEND_S,
})
longHint("100 sessions for 20 minutes; npm run bench:soak:500 for the load test's 500 sessions for 10 minutes")

await withWorld('soak', {}, async ({ gateway, sandbox }) => {
  console.log(`pairing ${SESSIONS} sessions...`)
  const sessions = await pairSessions({ gatewayUrl: gateway.url, sandboxUrl: sandbox.url, count: SESSIONS })
  const pid = gateway.child.pid!
  const runTag = `soak-${Date.now()}`
  const spec: SoakSpec = {
    gatewayUrl: gateway.url,
    sessions: sessions.map(s => ({ id: s.id, sessionId: s.sessionId })),
    peers: PEERS,
    seconds,
    pollEveryMs: POLL_S * 1000,
    typingEveryMs: TYPING_S * 1000,
    sendEveryMs: SEND_S * 1000,
    runTag,
  }
  console.log(`soaking ${SESSIONS} sessions for ${MINUTES} min (RSS reference at ${refSeconds} s)...`)
  const client = fork(path.join(import.meta.dirname, 'drivers/soak-client.ts'), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  const started = Date.now()
  const rss: { s: number; mb: number }[] = []
  const sampler = setInterval(() => {
    rss.push({ s: (Date.now() - started) / 1000, mb: rssMb(pid) })
  }, 5000)
  const done = new Promise<{ counts: SoakCounts; acked: { id: string; peer: string }[] }>((resolve, reject) => {
    client.on('message', (m: SoakMessage) => {
      if (m.kind === 'done') resolve(m)
      else
        console.log(
          `  ${((Date.now() - started) / 1000).toFixed(0)} s: ${m.counts.requests} requests, ${m.counts.sendsAcked} sends acked, ${m.counts.unexpected} unexpected, RSS ${rss.at(-1)?.mb.toFixed(0) ?? '?'} MB`,
        )
    })
    client.on('exit', code => reject(new Error(`soak client exited (${code}) before reporting`)))
  })
  client.send(spec)
  const { counts, acked } = await done
  clearInterval(sampler)
  const elapsed = (Date.now() - started) / 1000
  const rssEnd = rssMb(pid)
  const rssRef = rss.find(r => r.s >= refSeconds)?.mb ?? rss[0]?.mb ?? rssEnd

  // Every acknowledged message must reach its phone (delivery follows the ack by a moment: recheck for up to 60 s).
  const lostNow = async () => {
    const received = new Set<string>()
    for (const peer of PEERS) {
      const res = await fetch(`${sandbox.url}/accounts/${peer}/inbox`)
      for (const m of ((await res.json()) as { messages: { id: string }[] }).messages) received.add(m.id)
    }
    return acked.filter(a => !received.has(a.id))
  }
  let missing = await lostNow()
  for (const until = Date.now() + 60_000; missing.length > 0 && Date.now() < until; ) {
    await new Promise(r => setTimeout(r, 2000))
    missing = await lostNow()
  }

  const ratio = rssEnd / rssRef
  const run = `${SESSIONS} sessions, ${MINUTES} min, each polling every ~${POLL_S} s, typing every ~${TYPING_S} s, sending every ~${SEND_S} s`
  report.add({
    figure: `gateway RSS at the end ÷ after ${refSeconds < 60 ? `${refSeconds} s` : 'the first minute'} (${SESSIONS} sessions, ${MINUTES} min)`,
    value: ratio,
    unit: '×',
    goal: '≤ 1.1',
    met: ratio <= 1.1,
    detail: `${rssRef.toFixed(0)} MB → ${rssEnd.toFixed(0)} MB; max ${Math.max(...rss.map(r => r.mb)).toFixed(0)} MB; ${run}`,
  })
  report.add({
    figure: 'requests answered',
    value: counts.requests / elapsed,
    unit: 'req/s',
    detail: `${counts.requests} requests in ${elapsed.toFixed(0)} s; ${counts.backPressure} refused with 429/503 (back-pressure in the spec's error shape)`,
  })
  report.add({
    figure: 'unexpected errors (dropped connections, statuses or bodies outside the spec)',
    value: counts.unexpected,
    unit: '',
    goal: '0',
    met: counts.unexpected === 0,
    detail: counts.unexpectedSamples.join(' | ') || 'none',
  })
  report.add({
    figure: 'text sends acknowledged',
    value: counts.sendsAcked,
    unit: 'sends',
    detail: `${counts.sendsFailedClearly} failed with a clear error`,
  })
  report.add({
    figure: "requests failed with a clear error in the spec's shape",
    value: counts.sendsFailedClearly + counts.otherFailedClearly,
    unit: '',
    detail: `${counts.sendsFailedClearly} sends, ${counts.otherFailedClearly} polls or typing; ${counts.clearFailureSamples.join(' | ') || 'none'}`,
  })
  report.add({
    figure: 'acknowledged sends missing from the receiving phone',
    value: missing.length,
    unit: '',
    goal: '0',
    met: missing.length === 0,
    detail:
      missing
        .slice(0, 5)
        .map(m => `${m.id} → ${m.peer}`)
        .join(', ') || 'none',
  })
  report.add({
    figure: 'GET /session showing a connected session as disconnected',
    value: counts.seenDisconnected,
    unit: 'times',
    goal: '0',
    met: counts.seenDisconnected === 0,
  })
  report.note('rssMb', rss)
  // What the gateway logged about unexpected failures (its last 64 KB of output, LOG_LEVEL=warn), for the report.
  const logged = gateway
    .output()
    .split('\n')
    .filter(l => /"level":(50|60)/.test(l))
    .slice(-10)
  if (logged.length) {
    console.log(`gateway errors logged (last ${logged.length}):\n${logged.join('\n')}`)
    report.note('gatewayErrors', logged)
  }
})
report.finish()
