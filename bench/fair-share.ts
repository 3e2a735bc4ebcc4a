/**
 * Fair share under hostile load: p99 latency of a quiet session's GET /session and POST /typing while another
 * session ON THE SAME SHARD floods the gateway, divided by the same p99 with no flood, in one run (issue "fair
 * share"). Two floods, each in its own process at nice 19 (as are the sandbox and the probes, so the figure is the
 * gateway's own scheduling):
 *   - slow requests: the hostile session keeps FLOOD (1,000) GET /group in flight while the platform answers its
 *     account slowly (sandbox fault `delayAccount`), retrying a refusal after its Retry-After;
 *   - resets: an unpaired session of the hostile client loops POST /session/reset, 8 at a time.
 * Each round probes unloaded, then under each flood. Also counts the quiet session's non-2xx answers (goal 0), the
 * hostile answers by status, and the platform connections the reset flood opened.
 *
 *   npm run bench:fair-share   BENCH_ROUNDS (5), BENCH_SECONDS per probe (10), BENCH_FLOOD (1000), BENCH_PROBE_RATE (20)
 */
import { spawn } from 'node:child_process'
import path from 'node:path'
import { parseProm, sumOf } from '../test/support/prom-text.js'
import { runLoad, type LoadResult } from './lib/http-load.js'
import { BenchReport, median } from './lib/results.js'
import { createSession, headersOf, pairSessions, type BenchSession } from './lib/sessions.js'
import { setting } from './lib/settings.js'
import { withWorld } from './lib/world.js'

const ROUNDS = setting('BENCH_ROUNDS', 5)
const SECONDS = setting('BENCH_SECONDS', 10)
const FLOOD = setting('BENCH_FLOOD', 1000)
const PROBE_RATE = setting('BENCH_PROBE_RATE', 20)
const SHARDS = 2
const NICE = 19

const report = new BenchReport('fair-share', {
  rounds: ROUNDS,
  secondsPerProbe: SECONDS,
  flood: FLOOD,
  probeRatePerEndpoint: PROBE_RATE,
  shards: SHARDS,
})

/** Runs the flood driver at nice 19 for `seconds`; resolves with its answers by status. */
function flood(spec: {
  url: string
  method: string
  headers: Record<string, string>
  concurrency: number
  seconds: number
}): Promise<Record<string, number>> {
  const driver = path.join(import.meta.dirname, 'drivers/flood.ts')
  const child = spawn('nice', ['-n', String(NICE), process.execPath, '--import', 'tsx', driver, JSON.stringify(spec)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  let out = ''
  child.stdout.on('data', d => {
    out += d
  })
  return new Promise((resolve, reject) =>
    child.on('exit', code => {
      if (code === 0) resolve(JSON.parse(out.trim().split('\n').pop()!) as Record<string, number>)
      else reject(new Error(`flood driver exited ${code}`))
    }),
  )
}

/** Shard threads running, from the gateway's /metrics. */
const shardThreads = async (url: string) =>
  sumOf(parseProm(await (await fetch(`${url}/metrics`)).text()), 'gateway_shard_threads')

const add = (into: Record<string, number>, from: Record<string, number>) => {
  for (const [k, v] of Object.entries(from)) into[k] = (into[k] ?? 0) + v
}

// The quiet session probes POST /typing at PROBE_RATE: its own send rate must allow that (the default 10/s would
// answer the probe 429, which is the limit working, not a neighbour's doing).
await withWorld(
  'fair-share',
  { SHARDS: String(SHARDS), SEND_RATE_PER_SECOND: String(PROBE_RATE + 5) },
  async ({ gateway, sandbox }) => {
    console.log('pairing 4 sessions...')
    const paired = await pairSessions({ gatewayUrl: gateway.url, sandboxUrl: sandbox.url, count: 4 })
    // All on one shard (fewer than SHARD_FILL sessions: the second shard's thread never starts), so the quiet
    // session and the hostile ones are neighbours on one thread.
    const [quiet, hostile] = paired as [BenchSession, BenchSession]
    const unpaired = await createSession(gateway.url)
    const threads = await shardThreads(gateway.url)
    if (threads !== 1) throw new Error(`expected the sessions on one shard thread, found ${threads}`)

    const probe = (seconds: number) =>
      Promise.all([
        runLoad(
          {
            url: `${gateway.url}/session`,
            connections: 4,
            overallRate: PROBE_RATE,
            durationSeconds: seconds,
            headerSets: [headersOf(quiet)],
          },
          { nice: NICE },
        ),
        runLoad(
          {
            url: `${gateway.url}/typing`,
            method: 'POST',
            connections: 4,
            overallRate: PROBE_RATE,
            durationSeconds: seconds,
            headerSets: [headersOf(quiet)],
            body: JSON.stringify({ phone: '15550000002' }),
          },
          { nice: NICE },
        ),
      ])
    const sandboxCall = (method: string, route: string, body?: unknown) =>
      fetch(`${sandbox.url}${route}`, {
        method,
        headers: { 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }).then(r => r.json() as Promise<Record<string, unknown>>)
    const connections = async () => Number((await sandboxCall('GET', '/stats')).connections ?? 0)

    type Row = [LoadResult, LoadResult]
    const rows: { quiet: Row; slow: Row; reset: Row }[] = []
    const hostileSlow: Record<string, number> = {}
    const hostileReset: Record<string, number> = {}
    let resetConnections = 0
    await probe(5) // warm-up: the first seconds after pairing are busy with the sessions' initial sync
    for (let round = 0; round < ROUNDS; round++) {
      const quietRow = await probe(SECONDS)

      await sandboxCall('POST', '/faults', { delayMs: 2_000, delayAccount: hostile.phone })
      const slowFlood = flood({
        url: `${gateway.url}/group`,
        method: 'GET',
        headers: headersOf(hostile),
        concurrency: FLOOD,
        seconds: SECONDS + 2,
      })
      await new Promise(r => setTimeout(r, 1_000)) // the flood is in place before the probe starts
      const slowRow = await probe(SECONDS)
      await sandboxCall('DELETE', '/faults') // the admitted slow reads drain
      add(hostileSlow, await slowFlood)

      const before = await connections()
      const resetFlood = flood({
        url: `${gateway.url}/session/reset`,
        method: 'POST',
        headers: headersOf(unpaired),
        concurrency: 8,
        seconds: SECONDS + 2,
      })
      await new Promise(r => setTimeout(r, 1_000))
      const resetRow = await probe(SECONDS)
      add(hostileReset, await resetFlood)
      resetConnections += (await connections()) - before

      rows.push({ quiet: quietRow, slow: slowRow, reset: resetRow })
      const p = (r: Row) => `${r[0].p99Ms.toFixed(1)}/${r[1].p99Ms.toFixed(1)}`
      console.log(
        `  round ${round + 1}: p99 GET /session / POST /typing ms: quiet ${p(quietRow)}, slow flood ${p(slowRow)}, reset flood ${p(resetRow)}`,
      )
    }
    const bad = (k: 'slow' | 'reset' | 'quiet') =>
      rows.reduce((n, r) => n + r[k][0].non2xx + r[k][0].errors + r[k][1].non2xx + r[k][1].errors, 0)
    for (const [k, name] of [
      ['slow', `${FLOOD} slow requests from a neighbour`],
      ['reset', 'a reset flood from a neighbour'],
    ] as const) {
      for (const [i, endpoint] of [
        [0, 'GET /session'],
        [1, 'POST /typing'],
      ] as const) {
        const ratio = median(rows.map(r => r[k][i].p99Ms / r.quiet[i].p99Ms))
        const detail = `median of ${ROUNDS} rounds; p99 unloaded ${median(rows.map(r => r.quiet[i].p99Ms)).toFixed(1)} ms, loaded ${median(rows.map(r => r[k][i].p99Ms)).toFixed(1)} ms`
        report.add({
          figure: `p99 of a quiet session's ${endpoint} under ${name} on its shard ÷ none`,
          value: ratio,
          unit: '×',
          goal: '≤ 1.5',
          met: ratio <= 1.5,
          detail,
        })
      }
      const codes = rows.map(r => [r[k][0].statusCodes, r[k][1].statusCodes])
      report.add({
        figure: `quiet session's non-2xx or failed answers under ${name}`,
        value: bad(k),
        unit: 'answers',
        goal: '0',
        met: bad(k) === 0,
        detail: JSON.stringify(codes.flat().filter(c => Object.keys(c).some(code => !code.startsWith('2')))),
      })
    }
    report.add({
      figure: 'hostile slow-request flood: answers by status',
      value: hostileSlow['200'] ?? 0,
      unit: '200s',
      detail: JSON.stringify(hostileSlow),
    })
    report.add({
      figure: 'hostile reset flood: answers by status',
      value: hostileReset['200'] ?? 0,
      unit: '200s',
      detail: JSON.stringify(hostileReset),
    })
    report.add({
      figure: 'platform connections opened by the reset floods',
      value: resetConnections,
      unit: 'connections',
      detail: `${ROUNDS} floods of ${SECONDS + 2} s`,
    })
  },
  [],
  undefined,
  { sandboxNice: NICE },
)
report.finish()
