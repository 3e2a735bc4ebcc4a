/**
 * GET /session throughput with many connected sessions, beside a bare express handler returning the same body,
 * measured in one run: autocannon (its own process) alternates between the two targets in short runs, the order
 * flipped every round (gateway first, then bare first) so drifting machine load hits both sides alike, and the
 * figure is the median of the per-round ratios. The load rotates over every session's headers. The rounds start
 * once the restored fleet has settled, and run without a profiler; afterwards the gateway is restarted and both
 * servers run once more under --cpu-prof, to show where each one's CPU goes under this load. On a machine shared
 * with other work, throughput follows the scheduler more than the code, so the same runs also report requests per
 * CPU-second of each server process (from /proc, all threads: the gateway's includes its sessions' keep-alives).
 * The paired fleet is kept in bench/.cache between runs (fleet-cache.ts; BENCH_FLEET_CACHE=0 pairs afresh).
 *
 *   npm run bench:session [-- --long]   BENCH_SESSIONS (100; long 1,000), BENCH_SECONDS (4; 10), BENCH_ROUNDS (5; 7),
 *                                       BENCH_CONNECTIONS (32)
 * Goal (BENCHMARKS.md): ≥ 0.8 of the bare handler with 1,000 sessions.
 */
import { fork } from 'node:child_process'
import { once } from 'node:events'
import path from 'node:path'
import { freePort } from '../test/support/processes.js'
import { runLoad, type LoadResult } from './lib/http-load.js'
import { cpuSeconds } from './lib/proc.js'
import { ProfiledPhase } from './lib/profiled.js'
import { BenchReport, median } from './lib/results.js'
import { FleetCache } from './lib/fleet-cache.js'
import { headersOf, inBatches, pairSessions, readSession, waitConnected } from './lib/sessions.js'
import { longHint, setting } from './lib/settings.js'
import { withWorld } from './lib/world.js'

const SESSIONS = setting('BENCH_SESSIONS', 100, 1000)
const SECONDS = setting('BENCH_SECONDS', 4, 10)
const ROUNDS = setting('BENCH_ROUNDS', 5, 7)
const CONNECTIONS = setting('BENCH_CONNECTIONS', 32)
/** The fleet counts as settled once the gateway idles below this (or after SETTLE_MAX_S). */
const SETTLED_CORES = 0.1
const SETTLE_MAX_S = 120

const cache = new FleetCache(`get-session-${SESSIONS}`)
const report = new BenchReport('get-session', {
  cachedFleet: cache.reused,
  sessions: SESSIONS,
  secondsPerRun: SECONDS,
  rounds: ROUNDS,
  connections: CONNECTIONS,
})
longHint('1,000 sessions')
const profile = new ProfiledPhase()
const bareProfile = new ProfiledPhase()
const profiling = profile.nodeArgs.length > 0

/** The bare handler in a process of its own, serving `body`. */
async function startBare(body: unknown, nodeArgs: string[]) {
  const port = await freePort()
  const child = fork(path.join(import.meta.dirname, 'fixtures/bare-express.ts'), [], {
    execArgv: [...nodeArgs, '--import', 'tsx'],
    env: { ...process.env, PORT: String(port), BODY_JSON: JSON.stringify(body) },
    stdio: 'ignore',
  })
  await once(child, 'message')
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    async stop() {
      child.kill('SIGTERM')
      if (child.exitCode === null) await once(child, 'exit') // a profile is written at exit
    },
  }
}

/** A just-restored fleet is still finishing its logins (prekey checks, syncs): waits for the steady state, as
 * bench:scale does, and returns what the gateway then spends with no request at all (keep-alives, telemetry). */
async function settle(pid: number, maxSeconds = SETTLE_MAX_S): Promise<number> {
  let idleCores = Infinity
  for (let waited = 0; waited < maxSeconds && idleCores > SETTLED_CORES; waited += 5) {
    const idle0 = cpuSeconds(pid)
    await new Promise(r => setTimeout(r, 5000))
    idleCores = (cpuSeconds(pid) - idle0) / 5
    console.log(`  gateway with no requests: ${idleCores.toFixed(3)} cores`)
  }
  return idleCores
}

type Run = LoadResult & { perCpuSecond: number }

await withWorld(
  'get-session',
  {},
  async world => {
    const { sandbox } = world
    console.log(`${cache.reused ? 'restoring' : 'pairing'} ${SESSIONS} sessions...`)
    const sessions = await cache.sessions('gateway', () =>
      pairSessions({ gatewayUrl: world.gateway.url, sandboxUrl: sandbox.url, count: SESSIONS, concurrency: 10 }),
    )
    const allConnected = () => inBatches(sessions.length, 20, i => waitConnected(world.gateway.url, sessions[i]!, 500))
    await allConnected()
    const body = await readSession(world.gateway.url, sessions[0]!)
    const headerSets = sessions.map(headersOf)
    const target = (url: string, seconds: number) =>
      runLoad({ url: `${url}/session`, connections: CONNECTIONS, durationSeconds: seconds, headerSets })
    /** A run with the server's CPU seconds over it: requests per CPU-second. */
    const costed = async (url: string, pid: number, seconds: number): Promise<Run> => {
      const cpu0 = cpuSeconds(pid)
      const r = await target(url, seconds)
      return { ...r, perCpuSecond: r.ok / Math.max(0.01, cpuSeconds(pid) - cpu0) }
    }

    // 1. The figures, with no profiler: V8's sampler costs every thread it runs in, and the gateway has more threads
    //    than the bare handler (it idled at 0.27 cores under --cpu-prof with 1,000 sessions, 0.06 without).
    const bare = await startBare(body, [])
    try {
      await target(world.gateway.url, 2) // warm-up: JIT, connection pools
      await target(bare.url, 2)
      const idleCores = await settle(world.gateway.child.pid!)
      const g: Run[] = []
      const b: Run[] = []
      const gw = () => costed(world.gateway.url, world.gateway.child.pid!, SECONDS)
      const bareRun = () => costed(bare.url, bare.pid, SECONDS)
      for (let round = 0; round < ROUNDS; round++) {
        if (round % 2 === 0) {
          g.push(await gw())
          b.push(await bareRun())
        } else {
          b.push(await bareRun())
          g.push(await gw())
        }
        console.log(
          `  round ${round + 1}: gateway ${g.at(-1)!.perSecond.toFixed(0)} req/s (non-2xx ${g.at(-1)!.non2xx}, errors ${g.at(-1)!.errors}), bare ${b.at(-1)!.perSecond.toFixed(0)} req/s; per CPU-second ${g.at(-1)!.perCpuSecond.toFixed(0)} vs ${b.at(-1)!.perCpuSecond.toFixed(0)}`,
        )
      }
      const ratio = median(g.map((x, i) => x.perSecond / b[i]!.perSecond))
      const failed = g.reduce((n, x) => n + x.non2xx + x.errors, 0)
      const runs = `median of ${ROUNDS} runs of ${SECONDS} s, ${CONNECTIONS} connections, rotating over ${SESSIONS} connected sessions, no profiler`
      report.add({
        figure: `GET /session throughput, gateway, ${SESSIONS} sessions`,
        value: median(g.map(x => x.perSecond)),
        unit: 'req/s',
        detail: runs,
      })
      report.add({
        figure: 'same body from a bare express handler',
        value: median(b.map(x => x.perSecond)),
        unit: 'req/s',
        detail: runs,
      })
      report.add({
        figure: `GET /session throughput ÷ bare express (${SESSIONS} sessions)`,
        value: ratio,
        unit: '×',
        goal: '≥ 0.8 (1,000 sessions)',
        met: ratio >= 0.8,
        detail: `median of per-round ratios; ${failed} non-2xx or failed requests`,
      })
      report.add({
        figure: `gateway CPU with no requests (${SESSIONS} sessions' keep-alives, telemetry)`,
        value: idleCores,
        unit: 'cores',
        detail: `5 s before the rounds, once below ${SETTLED_CORES} cores or after ${SETTLE_MAX_S} s`,
      })
      const cpuRatio = median(g.map((x, i) => x.perCpuSecond / b[i]!.perCpuSecond))
      report.add({
        figure: 'GET /session per server CPU-second, gateway ÷ bare express',
        value: cpuRatio,
        unit: '×',
        detail: `gateway ${median(g.map(x => x.perCpuSecond)).toFixed(0)}, bare ${median(b.map(x => x.perCpuSecond)).toFixed(0)} requests per CPU-second (median of rounds); immune to how the scheduler shares the cores`,
      })
      report.add({
        figure: 'GET /session p99 under that load, gateway',
        value: median(g.map(x => x.p99Ms)),
        unit: 'ms',
        detail: `bare express p99 ${median(b.map(x => x.p99Ms)).toFixed(2)} ms`,
      })
    } finally {
      await bare.stop()
    }

    // 2. Where the CPU goes: one more run of each under --cpu-prof (BENCH_CPU_PROFILE=0 skips it).
    if (!profiling) return
    console.log('restarting the gateway under --cpu-prof for the profile...')
    const gateway = await world.restartGateway(profile.nodeArgs)
    await allConnected()
    await settle(gateway.child.pid!, 20) // under the profiler it never idles below SETTLED_CORES
    const profiledBare = await startBare(body, bareProfile.nodeArgs)
    try {
      await target(gateway.url, 2)
      await target(profiledBare.url, 2)
      profile.start()
      await target(gateway.url, SECONDS)
      profile.end()
      bareProfile.start()
      await target(profiledBare.url, SECONDS)
      bareProfile.end()
    } finally {
      await profiledBare.stop()
    }
    await gateway.stop() // profiles are written as the process and its worker threads exit
  },
  [],
  cache,
)
if (profiling) {
  const { summary, digest } = profile.summarise('of the gateway under the GET /session load')
  const bareRun = bareProfile.summarise('of the bare express handler under the same load')
  report.add({
    figure: `share of the gateway's CPU under that load in ${summary.byCaller[0]?.name ?? '?'}`,
    value: (summary.byCaller[0]?.share ?? 0) * 100,
    unit: '%',
    detail: digest,
  })
  report.add({
    figure: `same for the bare handler: ${bareRun.summary.byCaller[0]?.name ?? '?'}`,
    value: (bareRun.summary.byCaller[0]?.share ?? 0) * 100,
    unit: '%',
    detail: bareRun.digest,
  })
  report.note('cpuProfile', summary)
  report.note('cpuProfileBare', bareRun.summary)
}
report.finish()
