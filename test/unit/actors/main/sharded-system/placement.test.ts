/**
 * @module test/unit/actors/main/sharded-system/placement
 * Shards start as load needs them, on the real actor system (worker threads, lmdb, fake link): a second thread only
 * once the first holds SHARD_FILL sessions, a deleted session frees its place, and a session never moves: not when
 * another thread starts, not when its own thread is replaced after a crash, not across a restart. Rows written
 * before shards were placed (no `shard` field) run where `hash(id) mod SHARDS` puts them, as they always did.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { hashSecret } from '../../../../../src/actors/main/ids.js'
import { shardOf } from '../../../../../src/protocol/shard.js'
import { openLmdbStore } from '../../../../../src/storage/lmdb-store.js'
import {
  cleanup,
  pairedSession,
  snapshotOf,
  startSystem,
  tempDataDir,
  waitForQr,
} from '../../../../support/actor-system.js'
import { waitFor } from '../../../../support/wait-for.js'

afterEach(cleanup)

const threads = (system: Awaited<ReturnType<typeof startSystem>>) => system.stats().map(s => s.threads)
const typing = {
  type: 'sendTyping' as const,
  destination: { kind: 'phone' as const, phone: '1' },
  kind: 'text' as const,
}

describe('shards start as load needs them', () => {
  it('runs one thread until it holds SHARD_FILL sessions; sessions never move, across a crash and a restart', async () => {
    const dir = tempDataDir()
    const first = await startSystem({ SHARDS: '2', SHARD_FILL: '3' }, dir)
    const sessions = [await pairedSession(first), await pairedSession(first), await pairedSession(first)]
    expect(sessions.map(s => first.shardOf(s.id))).toEqual([0, 0, 0])
    expect(threads(first)).toEqual([1, 0]) // three sessions: one thread

    // a fourth starts the second thread; a deleted one frees its place on the first
    const fourth = await pairedSession(first)
    expect(first.shardOf(fourth.id)).toBe(1)
    expect(threads(first)).toEqual([1, 1])
    await first.deleteSession(sessions[2]!.id)
    // both run now, so a new session goes to the one holding fewest: shard 1 (1), then shard 0 (2, as shard 1),
    // which without the deletion would hold 3 and leave the sixth to shard 1
    const fifth = await first.createSession()
    const sixth = await first.createSession()
    expect([first.shardOf(fifth.id), first.shardOf(sixth.id)]).toEqual([1, 0])
    await waitForQr(first, sixth)
    const kept = [sessions[0]!, sessions[1]!, fourth]
    const placed = kept.map(s => first.shardOf(s.id))

    // the second thread dies: its replacement restores its session from the shard recorded in the row
    await first.terminateShardThread(1)
    await waitFor('the session of shard 1 back', () => snapshotOf(first, fourth)?.isConnected, 20_000, 25)
    expect(await first.run(fourth.id, typing)).toEqual({ id: fourth.id })
    await first.close()

    const second = await startSystem({ SHARDS: '2', SHARD_FILL: '3' }, dir)
    expect(kept.map(s => second.shardOf(s.id))).toEqual(placed)
    for (const s of kept) {
      await waitFor(`${s.id} reconnected`, () => snapshotOf(second, s)?.isConnected, 20_000, 25)
      expect(await second.run(s.id, typing)).toEqual({ id: s.id })
    }
  })

  it('runs a row without a recorded shard where hash(id) mod SHARDS puts it', async () => {
    const dir = tempDataDir()
    // a row as versions before this one wrote it, on the shard its hash does not favour by default
    let id = 'legacy-0'
    for (let n = 1; shardOf(id, 2) !== 1; n++) id = `legacy-${n}`
    const store = openLmdbStore(dir)
    const now = Date.now()
    await store.putSession({ id, secretHash: hashSecret('legacy-secret'), createdAt: now, qrDeadline: now + 60_000 })
    await store.close()

    const system = await startSystem({ SHARDS: '2', SHARD_FILL: '500' }, dir)
    expect(system.shardOf(id)).toBe(1)
    await waitFor('its shard thread', () => threads(system)[1] === 1 || undefined, 20_000, 25)
    await waitFor('its QR', () => snapshotOf(system, { id, sessionId: 'legacy-secret' })?.qrcode, 20_000, 25)
    // a new session goes to the running thread (shard 1), not to a new one
    const fresh = await system.createSession()
    expect(system.shardOf(fresh.id)).toBe(1)
    expect(threads(system)).toEqual([0, 1])
  })
})
