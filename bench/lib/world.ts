/**
 * @module bench/lib/world
 * One bench's processes: the platform sandbox and the real gateway, each its own process on loopback, with a temp
 * data folder; `stop()` ends both and removes the folder (also on Ctrl-C). With a `FleetCache`, the gateway's data
 * folder and the sandbox's state live in the cache instead, so a paired fleet survives to the next run.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { startGateway, startSandbox, type GatewayProcess, type SandboxProcess } from '../../test/support/processes.js'
import type { FleetCache } from './fleet-cache.js'

export interface BenchWorld {
  sandbox: SandboxProcess
  /** The current gateway process (a new object after `restartGateway`). */
  readonly gateway: GatewayProcess
  dataDir: string
  /** Stops the gateway cleanly and starts it again on the same data (e.g. with profiler flags). */
  restartGateway(nodeArgs: string[]): Promise<GatewayProcess>
  stop(): Promise<void>
}

/**
 * Gateway settings every bench wants: private (loopback) media URLs allowed, none of the admission limits on
 * POST /session (its rate, unpaired sessions per client, sessions per server): one bench client creates whole fleets,
 * and no cap of connections per address: every bench client (1,000 waiting GET /session, say) comes from 127.0.0.1.
 */
export const BENCH_ENV = {
  MEDIA_ALLOW_PRIVATE_URLS: 'true',
  SESSION_CREATE_PER_MINUTE: '0',
  UNPAIRED_PER_CLIENT: '0',
  MAX_SESSIONS: '0',
  CONNECTIONS_PER_CLIENT: '0',
}

export interface WorldOptions {
  /** Run the sandbox at this CPU priority (19: the figure is the gateway's own, not the sandbox taking its cores). */
  sandboxNice?: number
}

export async function startWorld(
  name: string,
  gatewayEnv: Record<string, string> = {},
  nodeArgs: string[] = [],
  cache?: FleetCache,
  options: WorldOptions = {},
): Promise<BenchWorld> {
  if (cache) process.env.SANDBOX_STATE_FILE = cache.stateFile // the sandbox child inherits it
  const sandbox = await startSandbox(
    undefined,
    undefined,
    options.sandboxNice === undefined ? {} : { nice: options.sandboxNice },
  )
  const dataDir = cache ? cache.dataDir('gateway') : mkdtempSync(path.join(os.tmpdir(), `bench-${name}-`))
  let gateway: GatewayProcess
  const env = { SANDBOX_URL: sandbox.url, DATA_DIR: dataDir, ...BENCH_ENV, ...gatewayEnv }
  try {
    gateway = await startGateway(env, nodeArgs)
  } catch (err) {
    await sandbox.stop()
    if (!cache) rmSync(dataDir, { recursive: true, force: true })
    throw err
  }
  let stopped = false
  const stop = async () => {
    if (stopped) return
    stopped = true
    await gateway.stop().catch(() => undefined)
    await sandbox.stop().catch(() => undefined)
    // both stopped cleanly: the cache keeps a coherent fleet (or removes a half-paired one)
    if (cache) cache.finish()
    else rmSync(dataDir, { recursive: true, force: true })
  }
  process.once('SIGINT', () => void stop().then(() => process.exit(130)))
  const restartGateway = async (args: string[]) => {
    await gateway.stop()
    gateway = await startGateway(env, args)
    return gateway
  }
  return {
    sandbox,
    get gateway() {
      return gateway
    },
    dataDir,
    restartGateway,
    stop,
  }
}

/** Runs `body` in a fresh world and always stops it; prints the gateway's last output when the bench fails. */
export async function withWorld<T>(
  name: string,
  gatewayEnv: Record<string, string>,
  body: (w: BenchWorld) => Promise<T>,
  nodeArgs: string[] = [],
  cache?: FleetCache,
  options: WorldOptions = {},
): Promise<T> {
  const world = await startWorld(name, gatewayEnv, nodeArgs, cache, options)
  try {
    return await body(world)
  } catch (err) {
    console.error(world.gateway.output().slice(-4000))
    throw err
  } finally {
    await world.stop()
  }
}
