/**
 * @module test/support/system/paired-gateway
 * The common start of a system test file: a sandbox and a temp DATA_DIR (the world), the real gateway process on
 * it, and (`pairedGateway`) one session paired as `phone`, or (`gatewayWorld`) none; stopped and removed after the
 * file. Registers its own beforeAll and afterAll, so a file states only what differs: the world's accounts, groups
 * and channels, and the gateway's env.
 */
import { afterAll, beforeAll } from 'vitest'
import { launchGateway, launchPaired, postWorld, startWorld, type Gateway, type Session } from './harness.js'

/** What a world gives: a sandbox to point the gateway at, a DATA_DIR, and how to remove both. */
export interface World {
  sandbox: { url: string }
  dataDir: string
  cleanup(): Promise<void>
}

export interface GatewayWorldOptions<W extends World> {
  /** Starts the world; startWorld() (a sandbox process with its built-in demo world) by default. */
  start?: () => Promise<W>
  /** Accounts, groups and channels POSTed to the sandbox's /world (merged into what `start` made) before the gateway starts. */
  world?: object
  /** The gateway's environment beyond the harness's (SANDBOX_URL, DATA_DIR, private media URLs allowed). */
  env?: Record<string, string>
  /** The beforeAll budget: starting two processes and pairing takes tens of seconds on a loaded machine. */
  timeoutMs?: number
}

/** The world's fields plus `gw`, filled in by the beforeAll: a gateway on the world, no session yet. */
export type GatewayWorld<W extends World = World> = W & { gw: Gateway }

/**
 * The world's fields plus `gw` and `session`, filled in by the beforeAll. A test that restarts the gateway assigns
 * the new one to `gw`, so that the afterAll stops the process that is running then.
 */
export type PairedGateway<W extends World = World> = GatewayWorld<W> & { session: Session }

type DefaultWorld = Awaited<ReturnType<typeof startWorld>>

/** A world and the gateway on it, for a file that creates its own sessions (or pairs more than one). */
export function gatewayWorld<W extends World = DefaultWorld>(options: GatewayWorldOptions<W> = {}): GatewayWorld<W> {
  return onWorld(options, async world => ({ gw: await launchGateway(world.sandbox.url, world.dataDir, options.env) }))
}

/** A world, the gateway on it, and one session paired as `phone`. */
export function pairedGateway<W extends World = DefaultWorld>(
  phone: string,
  options: GatewayWorldOptions<W> = {},
): PairedGateway<W> {
  return onWorld(options, world => launchPaired(world.sandbox.url, world.dataDir, phone, options.env))
}

/** Registers the hooks: the world started (and `options.world` posted), then `launch` on it; both stopped after. */
function onWorld<W extends World, L extends { gw: Gateway }>(
  options: GatewayWorldOptions<W>,
  launch: (world: W) => Promise<L>,
): W & L {
  const fixture = {} as W & L
  let world: W | undefined
  beforeAll(async () => {
    world = await (options.start ?? (startWorld as unknown as () => Promise<W>))()
    Object.assign(fixture, world)
    if (options.world) await postWorld(world.sandbox.url, options.world)
    Object.assign(fixture, await launch(world))
  }, options.timeoutMs ?? 120_000)
  afterAll(async () => {
    await fixture.gw?.proc.stop()
    await world?.cleanup()
  })
  return fixture
}
