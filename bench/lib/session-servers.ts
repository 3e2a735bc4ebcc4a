/**
 * @module bench/lib/session-servers
 * The servers bench/get-session.ts puts under GET /session load: the bare express floor (bench/fixtures/
 * bare-express.ts) serving each session's body, and the gateways, either the bench world's own (run from source)
 * or, for an A/B of two trees, one `node dist/main.js` per tree, each on a fleet of its own in the fleet cache (two
 * gateways on one fleet would fight over its platform connections), all on the world's sandbox.
 */
import { fork } from 'node:child_process'
import { once } from 'node:events'
import path from 'node:path'
import { freePort } from '../../test/support/processes.js'
import { buildDist, startBuiltGateway, type BuiltGateway } from './built-gateway.js'
import type { FleetCache } from './fleet-cache.js'
import { cpuSeconds } from './proc.js'
import { headersOf, inBatches, pairSessions, readSession, waitConnected, type BenchSession } from './sessions.js'
import { BENCH_ENV, type BenchWorld } from './world.js'

/** One gateway under load: where it listens, its process, its fleet. */
export interface SessionTarget {
  label: string
  /** The tree it runs from, when not this one (named from its root in the profile). */
  tree?: string
  url: string
  pid: number
  sessions: BenchSession[]
  headerSets: Record<string, string>[]
  /** Stops it and starts it again on the same fleet with `nodeArgs` (a profiler), all connected again. */
  restart(nodeArgs: string[]): Promise<void>
  stop(): Promise<void>
}

/** One tree of an A/B (BENCH_SESSION_GATEWAYS): `dir` built with tsc, started as `node [nodeArgs] dist/main.js`. */
export interface GatewayBuild {
  label: string
  dir: string
  env?: Record<string, string>
  nodeArgs?: string[]
}

const allConnected = (url: string, sessions: BenchSession[]) =>
  inBatches(sessions.length, 20, i => waitConnected(url, sessions[i]!, 500))

/** The world's own gateway as the one target. */
export async function worldTarget(world: BenchWorld, cache: FleetCache, count: number): Promise<SessionTarget> {
  const sessions = await cache.sessions('gateway', () =>
    pairSessions({ gatewayUrl: world.gateway.url, sandboxUrl: world.sandbox.url, count, concurrency: 10 }),
  )
  await allConnected(world.gateway.url, sessions)
  const target: SessionTarget = {
    label: '',
    url: world.gateway.url,
    pid: world.gateway.child.pid!,
    sessions,
    headerSets: sessions.map(headersOf),
    async restart(nodeArgs) {
      const gateway = await world.restartGateway(nodeArgs)
      target.url = gateway.url
      target.pid = gateway.child.pid!
      await allConnected(target.url, sessions)
    },
    stop: () => world.gateway.stop().then(() => undefined),
  }
  return target
}

/** One target per build, each on its own cached fleet of `count` sessions (phones apart from the other fleets'). */
export async function builtTargets(
  builds: GatewayBuild[],
  world: BenchWorld,
  cache: FleetCache,
  count: number,
): Promise<SessionTarget[]> {
  await world.gateway.stop() // its fleet would only add background load
  const targets: SessionTarget[] = []
  for (const [k, build] of builds.entries()) {
    buildDist(build.dir)
    const part = `gateway-${build.label}`
    const start = (nodeArgs: string[]) =>
      startBuiltGateway(
        world.sandbox.url,
        build.dir,
        { ...BENCH_ENV, ...build.env },
        [...(build.nodeArgs ?? []), ...nodeArgs],
        cache.dataDir(part),
      )
    let gateway: BuiltGateway = await start([])
    const phoneBase = 15550300000 + (k + 1) * 100_000
    const sessions = await cache.sessions(part, () =>
      pairSessions({ gatewayUrl: gateway.url, sandboxUrl: world.sandbox.url, count, concurrency: 10, phoneBase }),
    )
    await allConnected(gateway.url, sessions)
    const target: SessionTarget = {
      label: build.label,
      tree: build.dir,
      url: gateway.url,
      pid: gateway.pid,
      sessions,
      headerSets: sessions.map(headersOf),
      async restart(nodeArgs) {
        await gateway.stop()
        gateway = await start(nodeArgs)
        target.url = gateway.url
        target.pid = gateway.pid
        await allConnected(target.url, sessions)
      },
      stop: () => gateway.stop(),
    }
    targets.push(target)
  }
  return targets
}

/** What the bare handler serves: each of `target`'s sessions with its body as the gateway shows it now. */
export type BareBodies = (BenchSession & { body: unknown })[]

export const bareBodies = (target: SessionTarget): Promise<BareBodies> =>
  inBatches(target.sessions.length, 20, async i => ({
    ...target.sessions[i]!,
    body: await readSession(target.url, target.sessions[i]!),
  }))

/** The bare handler in a process of its own, serving `bodies`. */
export async function startBare(bodies: BareBodies, nodeArgs: string[]) {
  const port = await freePort()
  const child = fork(path.join(import.meta.dirname, '..', 'fixtures', 'bare-express.ts'), [], {
    execArgv: [...nodeArgs, '--import', 'tsx'],
    env: { ...process.env, PORT: String(port) },
    stdio: 'ignore',
  })
  child.send(bodies)
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

/** The fleet counts as settled once the gateway idles below this (or after `maxSeconds`). */
export const SETTLED_CORES = 0.1
export const SETTLE_MAX_S = 120

/** A just-restored fleet is still finishing its logins (prekey checks, syncs): waits for the steady state, as
 * bench:scale does, and returns what the gateway then spends with no request at all (keep-alives, telemetry). */
export async function settle(pid: number, maxSeconds = SETTLE_MAX_S): Promise<number> {
  let idleCores = Infinity
  for (let waited = 0; waited < maxSeconds && idleCores > SETTLED_CORES; waited += 5) {
    const idle0 = cpuSeconds(pid)
    await new Promise(r => setTimeout(r, 5000))
    idleCores = (cpuSeconds(pid) - idle0) / 5
    console.log(`  gateway with no requests: ${idleCores.toFixed(3)} cores`)
  }
  return idleCores
}
