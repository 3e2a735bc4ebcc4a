/**
 * GET /session throughput with many connected sessions, beside a bare express handler returning the same body,
 * measured in one run: autocannon (its own process) alternates between the two targets in short runs, the order
 * flipped every round (gateway first, then bare first) so drifting machine load hits both sides alike, and the
 * figure is the median of the per-round ratios. The load rotates over every session's headers. The gateway runs
 * and the bare handler both run under --cpu-prof (same overhead on both sides); the samples of their measured runs
 * show where each one's CPU goes under this load. On a machine shared
 * with other work, throughput follows the scheduler more than the code, so the same runs also report requests per
 * CPU-second of each server process (from /proc, all threads: the gateway's includes its sessions' keep-alives).
 *
 *   npm run bench:session [-- --long]   BENCH_SESSIONS (100; long 1,000), BENCH_SECONDS (4; 10), BENCH_ROUNDS (5; 7),
 *                                       BENCH_CONNECTIONS (32)
 * Goal (issue 5): ≥ 0.8 of the bare handler with 1,000 sessions.
 */
import { fork } from 'node:child_process'
import { once } from 'node:events'
import path from 'node:path'
import { freePort } from '../src/demo/processes.js'
import { runLoad, type LoadResult } from './lib/http-load.js'
import { cpuSeconds } from './lib/proc.js'
import { ProfiledPhase } from './lib/profiled.js'
import { BenchReport, median } from './lib/results.js'
import { headersOf, pairSessions, readSession } from './lib/sessions.js'
import { longHint, setting } from './lib/settings.js'
import { withWorld } from './lib/world.js'

const SESSIONS = setting('BENCH_SESSIONS', 100, 1000)
const SECONDS = setting('BENCH_SECONDS', 4, 10)
const ROUNDS = setting('BENCH_ROUNDS', 5, 7)
const CONNECTIONS = setting('BENCH_CONNECTIONS', 32)

const report = new BenchReport('get-session', { sessions: SESSIONS, secondsPerRun: SECONDS, rounds: ROUNDS, connections: CONNECTIONS })
longHint('1,000 sessions')
const profile = new ProfiledPhase()
const bareProfile = new ProfiledPhase()

await withWorld('get-session', {}, async ({ gateway, sandbox }) => {
  console.log(`pairing ${SESSIONS} sessions...`)
  const sessions = await pairSessions({ gatewayUrl: gateway.url, sandboxUrl: sandbox.url, count: SESSIONS, concurrency: 10 })
  const body = await readSession(gateway.url, sessions[0]!)

  const barePort = await freePort()
  const bare = fork(path.join(import.meta.dirname, 'fixtures/bare-express.ts'), [], {
    execArgv: [...bareProfile.nodeArgs, '--import', 'tsx'], env: { ...process.env, PORT: String(barePort), BODY_JSON: JSON.stringify(body) }, stdio: 'ignore',
  })
  await once(bare, 'message')
  try {
    const headerSets = sessions.map(headersOf)
    const target = (url: string, seconds: number) => runLoad({ url: `${url}/session`, connections: CONNECTIONS, durationSeconds: seconds, headerSets })
    const bareUrl = `http://127.0.0.1:${barePort}`
    /** A run with the server's CPU seconds over it: requests per CPU-second. */
    const costed = async (url: string, pid: number, seconds: number) => {
      const cpu0 = cpuSeconds(pid)
      const r = await target(url, seconds)
      return { ...r, perCpuSecond: r.ok / Math.max(0.01, cpuSeconds(pid) - cpu0) }
    }
    const measured = async (seconds: number) => {
      profile.start()
      try { return await costed(gateway.url, gateway.child.pid!, seconds) } finally { profile.end() }
    }
    const measuredBare = async (seconds: number) => {
      bareProfile.start()
      try { return await costed(bareUrl, bare.pid!, seconds) } finally { bareProfile.end() }
    }
    await target(gateway.url, 2) // warm-up: JIT, connection pools
    await target(bareUrl, 2)
    const g: (LoadResult & { perCpuSecond: number })[] = []
    const b: typeof g = []
    for (let round = 0; round < ROUNDS; round++) {
      if (round % 2 === 0) { g.push(await measured(SECONDS)); b.push(await measuredBare(SECONDS)) }
      else { b.push(await measuredBare(SECONDS)); g.push(await measured(SECONDS)) }
      console.log(`  round ${round + 1}: gateway ${g.at(-1)!.perSecond.toFixed(0)} req/s (non-2xx ${g.at(-1)!.non2xx}, errors ${g.at(-1)!.errors}), bare ${b.at(-1)!.perSecond.toFixed(0)} req/s; per CPU-second ${g.at(-1)!.perCpuSecond.toFixed(0)} vs ${b.at(-1)!.perCpuSecond.toFixed(0)}`)
    }
    const ratio = median(g.map((x, i) => x.perSecond / b[i]!.perSecond))
    const failed = g.reduce((n, x) => n + x.non2xx + x.errors, 0)
    const runs = `median of ${ROUNDS} runs of ${SECONDS} s, ${CONNECTIONS} connections, rotating over ${SESSIONS} connected sessions`
    report.add({ figure: `GET /session throughput, gateway, ${SESSIONS} sessions`, value: median(g.map(x => x.perSecond)), unit: 'req/s', detail: runs })
    report.add({ figure: 'same body from a bare express handler', value: median(b.map(x => x.perSecond)), unit: 'req/s', detail: runs })
    report.add({ figure: `GET /session throughput ÷ bare express (${SESSIONS} sessions)`, value: ratio, unit: '×', goal: '≥ 0.8 (1,000 sessions)', met: ratio >= 0.8, detail: `median of per-round ratios; ${failed} non-2xx or failed requests` })
    const cpuRatio = median(g.map((x, i) => x.perCpuSecond / b[i]!.perCpuSecond))
    report.add({ figure: 'GET /session per server CPU-second, gateway ÷ bare express', value: cpuRatio, unit: '×', detail: `gateway ${median(g.map(x => x.perCpuSecond)).toFixed(0)}, bare ${median(b.map(x => x.perCpuSecond)).toFixed(0)} requests per CPU-second (median of rounds); immune to how the scheduler shares the cores` })
    report.add({ figure: 'GET /session p99 under that load, gateway', value: median(g.map(x => x.p99Ms)), unit: 'ms', detail: `bare express p99 ${median(b.map(x => x.p99Ms)).toFixed(2)} ms` })
  } finally {
    bare.kill('SIGTERM')
    if (bare.exitCode === null) await once(bare, 'exit') // its profile is written at exit
  }
  await gateway.stop() // profiles are written as the process and its worker threads exit
}, profile.nodeArgs)
const { summary, digest } = profile.summarise('of the gateway under the GET /session load')
const bareRun = bareProfile.summarise('of the bare express handler under the same load')
report.add({ figure: `share of the gateway's CPU under that load in ${summary.byCaller[0]?.name ?? '?'}`, value: (summary.byCaller[0]?.share ?? 0) * 100, unit: '%', detail: digest })
report.add({ figure: `same for the bare handler: ${bareRun.summary.byCaller[0]?.name ?? '?'}`, value: (bareRun.summary.byCaller[0]?.share ?? 0) * 100, unit: '%', detail: bareRun.digest })
report.note('cpuProfile', summary)
report.note('cpuProfileBare', bareRun.summary)
report.finish()
