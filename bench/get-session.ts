/**
 * GET /session throughput with many connected sessions, beside a bare express handler doing the least the route
 * must (read the two headers, look the session up, compare its secret, answer its JSON body), measured in one run:
 * autocannon (its own process, at nice 19, as is the sandbox) alternates between the targets in short runs, the
 * order rotating every round so drifting machine load hits every side alike, and the figure is the median of the
 * per-round ratios. The load rotates over every session's headers. The rounds start once the restored fleet has
 * settled, and run without a profiler; afterwards each gateway is restarted and every server runs once more under
 * --cpu-prof, to show where each one's CPU goes under this load. On a machine shared with other work, throughput
 * follows the scheduler more than the code, so the same runs also report requests per CPU-second of each server
 * process (from /proc, all threads: the gateway's includes its sessions' keep-alives).
 * The paired fleet is kept in bench/.cache between runs (fleet-cache.ts; BENCH_FLEET_CACHE=0 pairs afresh).
 *
 *   npm run bench:session [-- --long]   BENCH_SESSIONS (100; long 1,000), BENCH_SECONDS (4; 10), BENCH_ROUNDS (5; 7),
 *                                       BENCH_CONNECTIONS (32)
 * A/B of two trees: BENCH_SESSION_GATEWAYS='[{"label":"A","dir":"/path/to/a"},{"label":"B","dir":"/path/to/b"}]'
 * builds each (tsc), runs `node dist/main.js` of each on a fleet of its own, and puts all of them and the bare
 * handler in the same rotation (optional "env" and "nodeArgs" per entry, as bench/bare-baileys.ts takes them).
 * Goal (BENCHMARKS.md): ≥ 0.8 of the bare handler with 1,000 sessions.
 */
import { execFileSync } from 'node:child_process'
import { runLoad, type LoadResult } from './lib/http-load.js'
import { cpuSeconds } from './lib/proc.js'
import { ProfiledPhase } from './lib/profiled.js'
import { BenchReport, median } from './lib/results.js'
import { FleetCache } from './lib/fleet-cache.js'
import {
  bareBodies,
  builtTargets,
  type GatewayBuild,
  SETTLE_MAX_S,
  SETTLED_CORES,
  type SessionTarget,
  settle,
  startBare,
  worldTarget,
} from './lib/session-servers.js'
import { longHint, setting } from './lib/settings.js'
import { withWorld } from './lib/world.js'

const SESSIONS = setting('BENCH_SESSIONS', 100, 1000)
const SECONDS = setting('BENCH_SECONDS', 4, 10)
const ROUNDS = setting('BENCH_ROUNDS', 5, 7)
const CONNECTIONS = setting('BENCH_CONNECTIONS', 32)
const builds = process.env.BENCH_SESSION_GATEWAYS
  ? (JSON.parse(process.env.BENCH_SESSION_GATEWAYS) as GatewayBuild[])
  : undefined
/** The commit a tree is at (with `+dirty` when it has changes): a result file names no place on the machine. */
const commitOf = (dir: string) =>
  execFileSync('git', ['-C', dir, 'describe', '--always', '--dirty=+dirty', '--abbrev=8'], { encoding: 'utf8' }).trim()

const cache = new FleetCache(`get-session-${SESSIONS}`)
const report = new BenchReport('get-session', {
  cachedFleet: cache.reused,
  sessions: SESSIONS,
  secondsPerRun: SECONDS,
  rounds: ROUNDS,
  connections: CONNECTIONS,
  ...(builds ? { gateways: builds.map(({ dir, ...build }) => ({ ...build, commit: commitOf(dir) })) } : {}),
})
longHint('1,000 sessions')
const profiling = process.env.BENCH_CPU_PROFILE !== '0' // as ProfiledPhase reads it
const bareProfile = new ProfiledPhase()
const profiles = new Map<string, ProfiledPhase>()
const named = (figure: string, label: string) => (label ? `${figure} [${label}]` : figure)

type Run = LoadResult & { perCpuSecond: number }
const target = (url: string, headerSets: Record<string, string>[], seconds: number) =>
  runLoad({ url: `${url}/session`, connections: CONNECTIONS, durationSeconds: seconds, headerSets }, { nice: 19 })
/** A run with the server's CPU seconds over it: requests per CPU-second. */
async function costed(url: string, pid: number, headerSets: Record<string, string>[]): Promise<Run> {
  const cpu0 = cpuSeconds(pid)
  const r = await target(url, headerSets, SECONDS)
  return { ...r, perCpuSecond: r.ok / Math.max(0.01, cpuSeconds(pid) - cpu0) }
}
const line = (name: string, r: Run) =>
  `${name} ${r.perSecond.toFixed(0)} req/s (${r.perCpuSecond.toFixed(0)} per CPU-s, non-2xx ${r.non2xx}, errors ${r.errors})`

/** The rounds, gateways and bare handler in a rotating order; figures for the report. */
async function measure(gateways: SessionTarget[]): Promise<void> {
  // 1. The figures, with no profiler: V8's sampler costs every thread it runs in, and the gateway has more threads
  //    than the bare handler (it idled at 0.27 cores under --cpu-prof with 1,000 sessions, 0.06 without).
  const bodies = await bareBodies(gateways[0]!)
  const bare = await startBare(bodies, [])
  const bareHeaders = gateways[0]!.headerSets
  try {
    for (const g of gateways) await target(g.url, g.headerSets, 2) // warm-up: JIT, connection pools
    await target(bare.url, bareHeaders, 2)
    const idle = new Map<string, number>()
    for (const g of gateways) idle.set(g.label, await settle(g.pid))
    const runs = new Map<string, Run[]>([...gateways.map(g => [g.label, []] as [string, Run[]]), ['bare', []]])
    const sides = [
      ...gateways.map(g => ({
        name: g.label || 'gateway',
        key: g.label,
        run: () => costed(g.url, g.pid, g.headerSets),
      })),
      { name: 'bare', key: 'bare', run: () => costed(bare.url, bare.pid, bareHeaders) },
    ]
    for (let round = 0; round < ROUNDS; round++) {
      const order = sides.map((_, i) => sides[(i + round) % sides.length]!)
      const out: string[] = []
      for (const side of order) {
        const r = await side.run()
        runs.get(side.key)!.push(r)
        out.push(line(side.name, r))
      }
      console.log(`  round ${round + 1}: ${out.join('; ')}`)
    }
    const b = runs.get('bare')!
    const detail = `median of ${ROUNDS} runs of ${SECONDS} s, ${CONNECTIONS} connections, rotating over ${SESSIONS} connected sessions, no profiler`
    const spread = (xs: number[]) => `${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}`
    for (const gw of gateways) {
      const g = runs.get(gw.label)!
      const ratios = g.map((x, i) => x.perSecond / b[i]!.perSecond)
      const cpuRatios = g.map((x, i) => x.perCpuSecond / b[i]!.perCpuSecond)
      const failed = g.reduce((n, x) => n + x.non2xx + x.errors, 0)
      const label = gw.label
      report.add({
        figure: named(`GET /session throughput, gateway, ${SESSIONS} sessions`, label),
        value: median(g.map(x => x.perSecond)),
        unit: 'req/s',
        detail,
      })
      report.add({
        figure: named(`GET /session throughput ÷ bare express (${SESSIONS} sessions)`, label),
        value: median(ratios),
        unit: '×',
        goal: '≥ 0.8 (1,000 sessions)',
        met: median(ratios) >= 0.8,
        detail: `median of per-round ratios, spread ${spread(ratios)}; ${failed} non-2xx or failed requests`,
      })
      report.add({
        figure: named('GET /session per server CPU-second, gateway ÷ bare express', label),
        value: median(cpuRatios),
        unit: '×',
        detail: `spread ${spread(cpuRatios)}; gateway ${median(g.map(x => x.perCpuSecond)).toFixed(0)}, bare ${median(b.map(x => x.perCpuSecond)).toFixed(0)} requests per CPU-second (median of rounds); immune to how the scheduler shares the cores`,
      })
      report.add({
        figure: named('GET /session p99 under that load, gateway', label),
        value: median(g.map(x => x.p99Ms)),
        unit: 'ms',
        detail: `bare express p99 ${median(b.map(x => x.p99Ms)).toFixed(2)} ms`,
      })
      report.add({
        figure: named(`gateway CPU with no requests (${SESSIONS} sessions' keep-alives, telemetry)`, label),
        value: idle.get(label)!,
        unit: 'cores',
        detail: `5 s before the rounds, once below ${SETTLED_CORES} cores or after ${SETTLE_MAX_S} s`,
      })
    }
    // an A/B: each later tree against the first, round by round
    const first = runs.get(gateways[0]!.label)!
    for (const gw of gateways.slice(1)) {
      const ratios = runs.get(gw.label)!.map((x, i) => x.perCpuSecond / first[i]!.perCpuSecond)
      report.add({
        figure: `GET /session requests per CPU-second, ${gw.label} ÷ ${gateways[0]!.label}`,
        value: median(ratios),
        unit: '×',
        detail: `median of per-round ratios, spread ${spread(ratios)}, higher in ${ratios.filter(r => r > 1).length} of ${ROUNDS}`,
      })
    }
    report.add({
      figure: 'same body from a bare express handler',
      value: median(b.map(x => x.perSecond)),
      unit: 'req/s',
      detail,
    })
  } finally {
    await bare.stop()
  }

  // 2. Where the CPU goes: one more run of each under --cpu-prof (BENCH_CPU_PROFILE=0 skips it).
  if (!profiling) return
  for (const g of gateways) {
    console.log(`restarting the gateway${g.label ? ` ${g.label}` : ''} under --cpu-prof for the profile...`)
    const profile = new ProfiledPhase(g.tree)
    profiles.set(g.label, profile)
    await g.restart(profile.nodeArgs)
    await settle(g.pid, 20) // under the profiler it never idles below SETTLED_CORES
    await target(g.url, g.headerSets, 2)
    profile.start()
    await target(g.url, g.headerSets, SECONDS)
    profile.end()
    await g.stop() // profiles are written as the process and its worker threads exit
  }
  const profiledBare = await startBare(bodies, bareProfile.nodeArgs)
  try {
    await target(profiledBare.url, bareHeaders, 2)
    bareProfile.start()
    await target(profiledBare.url, bareHeaders, SECONDS)
    bareProfile.end()
  } finally {
    await profiledBare.stop()
  }
}

await withWorld(
  'get-session',
  {},
  async world => {
    console.log(`${cache.reused ? 'restoring' : 'pairing'} ${SESSIONS} sessions...`)
    const gateways = builds
      ? await builtTargets(builds, world, cache, SESSIONS)
      : [await worldTarget(world, cache, SESSIONS)]
    try {
      await measure(gateways)
    } finally {
      if (builds) for (const g of gateways) await g.stop()
    }
  },
  [],
  cache,
  { sandboxNice: 19 },
)
for (const [label, profile] of profiles) {
  const { summary, digest } = profile.summarise(`of the gateway${label ? ` ${label}` : ''} under the GET /session load`)
  report.add({
    figure: named(`share of the gateway's CPU under that load in ${summary.byCaller[0]?.name ?? '?'}`, label),
    value: (summary.byCaller[0]?.share ?? 0) * 100,
    unit: '%',
    detail: digest,
  })
  report.note(label ? `cpuProfile ${label}` : 'cpuProfile', summary)
}
if (profiling) {
  const bareRun = bareProfile.summarise('of the bare express handler under the same load')
  report.add({
    figure: `same for the bare handler: ${bareRun.summary.byCaller[0]?.name ?? '?'}`,
    value: (bareRun.summary.byCaller[0]?.share ?? 0) * 100,
    unit: '%',
    detail: bareRun.digest,
  })
  report.note('cpuProfileBare', bareRun.summary)
}
report.finish()
