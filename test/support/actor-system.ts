/**
 * @module test/support/actor-system
 * Real actor systems (real worker threads, real lmdb) on a temp DATA_DIR with the fake link; waits on their state
 * (polled every 25 ms: tests with QR lifetimes of 1-2 s need the quick poll), and the cross-thread handles of the
 * fake link.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { BroadcastChannel } from 'node:worker_threads'
import { fileURLToPath } from 'node:url'
import pino from 'pino'
import { loadSettings } from '../../src/gateway-settings.js'
import { createShardedSessionSystem, type ShardedSessionSystem } from '../../src/actors/main/system.js'
import type { SessionSnapshot } from '../../src/protocol/snapshot.js'
import { FAKE_CONTROL, FAKE_EVENTS, type FakeAction, type FakeEvent } from './fakes/fake-link.js'
import { waitFor } from './wait-for.js'

export const fakeLinkModule = fileURLToPath(new URL('./fakes/fake-link.ts', import.meta.url))

const systems: ShardedSessionSystem[] = []
const dirs: string[] = []
const channels: BroadcastChannel[] = []

export function tempDataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'actors-'))
  dirs.push(dir)
  return dir
}

export async function startSystem(
  env: Record<string, string> = {},
  dataDir = tempDataDir(),
): Promise<ShardedSessionSystem> {
  // These tests create many sessions as one caller (sessionOnShard creates until one lands on a shard): the cap
  // of unpaired sessions per client would make them flaky; test/system/faults/unpaired-sessions.test.ts covers it.
  // SHARD_FILL 1: each shard takes its turn, so sessionOnShard reaches every shard (placement.test.ts tests the fill).
  const settings = loadSettings({
    DATA_DIR: dataDir,
    SHARDS: '2',
    SHARD_FILL: '1',
    LOG_LEVEL: 'silent',
    TYPING_MS: '300',
    UNPAIRED_PER_CLIENT: '0',
    ...env,
  })
  const system = await createShardedSessionSystem({
    settings,
    logger: pino({ level: 'silent' }),
    linkModule: fakeLinkModule,
  })
  systems.push(system)
  return system
}

/** Closes every system, channel and temp dir a test started (call from afterEach). */
export async function cleanup(): Promise<void> {
  for (const s of systems.splice(0)) await s.close()
  for (const c of channels.splice(0)) c.close()
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true })
}

const control = new BroadcastChannel(FAKE_CONTROL)
control.unref()
export const fake = (session: string, action: FakeAction): void => control.postMessage({ session, action })

/** Records everything the fake links report, from every thread. */
export function fakeEvents(): FakeEvent[] {
  const seen: FakeEvent[] = []
  const channel = new BroadcastChannel(FAKE_EVENTS)
  channel.unref()
  channel.onmessage = (msg: unknown) => seen.push((msg as MessageEvent<FakeEvent>).data)
  channels.push(channel)
  return seen
}

export type Session = { id: string; sessionId: string }

export const snapshotOf = (system: ShardedSessionSystem, s: Session): SessionSnapshot | undefined =>
  system.authenticate(s.id, s.sessionId)

export const waitForQr = (system: ShardedSessionSystem, s: Session) =>
  waitFor(`a QR for ${s.id}`, () => snapshotOf(system, s)?.qrcode, 20_000, 25)

/** Creates a session and pairs it through the fake (QR shown, scanned, 515 restart, open). */
export async function pairedSession(system: ShardedSessionSystem): Promise<Session> {
  const s = await system.createSession()
  await waitForQr(system, s)
  fake(s.id, 'scan')
  await waitFor(`${s.id} connected`, () => snapshotOf(system, s)?.isConnected, 20_000, 25)
  return s
}

/** Creates sessions until one lands on `shard` (with SHARD_FILL 1, within SHARDS tries). */
export async function sessionOnShard(system: ShardedSessionSystem, shard: number): Promise<Session> {
  for (;;) {
    const s = await system.createSession()
    if (system.shardOf(s.id) === shard) return s
  }
}

/** Waits until every shard's thread is up (a session on it showed a QR or was already deleted). */
export async function warmUp(system: ShardedSessionSystem, shards = 2): Promise<void> {
  for (let shard = 0; shard < shards; shard++) {
    const s = await sessionOnShard(system, shard)
    await waitFor(
      `shard ${shard} up`,
      () => {
        const snap = snapshotOf(system, s)
        return snap === undefined || snap.qrcode !== ''
      },
      20_000,
      25,
    )
  }
}
