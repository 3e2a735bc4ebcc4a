/**
 * @module test/support/system/paired-gateway
 * The common start of a system test file: a sandbox and a temp DATA_DIR (the world), the real gateway process on
 * it, and one session paired as `phone`; stopped and removed after the file. Registers its own beforeAll and
 * afterAll, so a file states only what differs: the world's accounts, groups and channels, and the gateway's env.
 */
import { afterAll, beforeAll } from 'vitest'
import { launchPaired, postWorld, startWorld, type Gateway, type Session } from './harness.js'

/** What a world gives: a sandbox to point the gateway at, a DATA_DIR, and how to remove both. */
export interface World {
  sandbox: { url: string }
  dataDir: string
  cleanup(): Promise<void>
}

export interface PairedGatewayOptions<W extends World> {
  /** Starts the world; startWorld() (a sandbox process with its built-in demo world) by default. */
  start?: () => Promise<W>
  /** Accounts, groups and channels POSTed to the sandbox's /world (merged into what `start` made) before pairing. */
  world?: object
  /** The gateway's environment beyond the harness's (SANDBOX_URL, DATA_DIR, private media URLs allowed). */
  env?: Record<string, string>
  /** The beforeAll budget: starting two processes and pairing takes tens of seconds on a loaded machine. */
  timeoutMs?: number
}

/**
 * The world's fields plus `gw` and `session`, filled in by the beforeAll. A test that restarts the gateway assigns
 * the new one to `gw`, so that the afterAll stops the process that is running then.
 */
export type PairedGateway<W extends World = World> = W & { gw: Gateway; session: Session }

export function pairedGateway<W extends World = Awaited<ReturnType<typeof startWorld>>>(
  phone: string,
  options: PairedGatewayOptions<W> = {},
): PairedGateway<W> {
  const paired = {} as PairedGateway<W>
  let world: W | undefined
  beforeAll(async () => {
    world = await (options.start ?? (startWorld as unknown as () => Promise<W>))()
    Object.assign(paired, world)
    if (options.world) await postWorld(world.sandbox.url, options.world)
    Object.assign(paired, await launchPaired(world.sandbox.url, world.dataDir, phone, options.env))
  }, options.timeoutMs ?? 120_000)
  afterAll(async () => {
    await paired.gw?.proc.stop()
    await world?.cleanup()
  })
  return paired
}
