/**
 * @module test/unit/cluster/store/lease
 * Leases and fenced writes on a real redis-server. Acquiring bumps the epoch; a second node cannot acquire while
 * the lease lives, and takes over with a higher epoch once it expired; the old owner can then neither renew nor
 * release it. A write made with a stale epoch is refused (a typed error, counted) and leaves every key as the new
 * owner wrote it; a keeper whose renewals are refused, or whose deadline passed (monotonic clock), reports the
 * lease lost and refuses writes itself.
 */
import { afterEach, expect, it } from 'vitest'
import { initAuthCreds } from '@whiskeysockets/baileys'
import {
  acquireLease,
  LeaseHeldError,
  LeaseKeeper,
  releaseLease,
  renewLease,
} from '../../../../src/cluster/store/lease.js'
import { FencedWriteError, type Fence, type FenceToken } from '../../../../src/cluster/store/fencing.js'
import { LeaseDeadline } from '../../../../src/cluster/store/lease-deadline.js'
import { text } from '../../../../src/cluster/store/connection.js'
import { sessionKeys } from '../../../../src/cluster/store/keys.js'
import { openRedisStore } from '../../../../src/cluster/store/redis-store.js'
import { takeThreadCounts } from '../../../../src/metrics/thread-counters.js'
import type { Store } from '../../../../src/storage/types.js'
import { redisHarness } from '../../../support/redis-harness.js'
import { describeWithRedis } from '../../../support/redis-server.js'

const redis = redisHarness()
const cleanups: Array<() => unknown> = []
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c()
})

/** Makes Redis itself expire the lease now (as if its TTL ran out while its holder was paused), and waits for it. */
async function expireNow(id: string): Promise<void> {
  await redis.conn.command(['PEXPIRE', sessionKeys(id).lease, '1'])
  while (Number(await redis.conn.command(['EXISTS', sessionKeys(id).lease])) === 1)
    await new Promise(r => setTimeout(r, 5))
}

const fencedStore = (fence: Fence): Store => {
  const store = openRedisStore(redis.url, { fence })
  cleanups.push(() => store.close())
  return store
}
const fixed = (token: FenceToken): Fence & { refusals: number } => ({
  refusals: 0,
  token: () => token,
  refused() {
    this.refusals++
  },
})
const fencedCount = () =>
  takeThreadCounts()
    .filter(s => s.key === 'fencedWrites')
    .reduce((n, s) => n + s.value, 0)

describeWithRedis('leases', () => {
  it('acquiring bumps the epoch; a second node waits for the expiry, then takes over with a higher epoch', async () => {
    const first = await acquireLease(redis.conn, 's', 'node-a', 60_000)
    expect(first).toBe(1)
    expect(text(await redis.conn.command(['GET', sessionKeys('s').lease]))).toBe('node-a|1')
    const held = await acquireLease(redis.conn, 's', 'node-b', 60_000).catch((err: unknown) => err)
    expect(held).toBeInstanceOf(LeaseHeldError)
    expect((held as Error).message).toMatch(/node-a/)
    await expireNow('s')
    const second = await acquireLease(redis.conn, 's', 'node-b', 60_000)
    expect(second).toBe(2)
    // the old owner can neither extend nor drop the new owner's lease
    expect(await renewLease(redis.conn, 's', { node: 'node-a', epoch: 1 }, 60_000)).toBe(false)
    expect(await releaseLease(redis.conn, 's', { node: 'node-a', epoch: 1 })).toBe(false)
    expect(text(await redis.conn.command(['GET', sessionKeys('s').lease]))).toBe('node-b|2')
    expect(await renewLease(redis.conn, 's', { node: 'node-b', epoch: 2 }, 60_000)).toBe(true)
    expect(await releaseLease(redis.conn, 's', { node: 'node-b', epoch: 2 })).toBe(true)
    expect(await acquireLease(redis.conn, 's', 'node-a', 60_000)).toBe(3) // released: free at once, epoch still grows
  })

  it('lets the same node name take its own lease over (a restart), with a new epoch', async () => {
    expect(await acquireLease(redis.conn, 's', 'node-a', 60_000)).toBe(1)
    expect(await acquireLease(redis.conn, 's', 'node-a', 60_000)).toBe(2)
    expect(await acquireLease(redis.conn, 's', 'node-a2', 60_000).catch((e: unknown) => e)).toBeInstanceOf(
      LeaseHeldError,
    )
  })
})

describeWithRedis('fenced writes', () => {
  it('refuses a write with a stale epoch, counts it, and leaves every key as the new owner wrote it', async () => {
    takeThreadCounts()
    const epochA = await acquireLease(redis.conn, 's', 'node-a', 60_000)
    const a = fixed({ node: 'node-a', epoch: epochA })
    const storeA = fencedStore(a)
    await storeA.auth('s').keys.set({ session: { x: Buffer.from([1]) } })
    await expireNow('s') // node-a is "paused" past its lease
    const epochB = await acquireLease(redis.conn, 's', 'node-b', 60_000)
    const storeB = fencedStore(fixed({ node: 'node-b', epoch: epochB }))
    const credsB = initAuthCreds()
    await storeB.auth('s').writeCreds(credsB)
    await storeB.auth('s').keys.set({ session: { x: Buffer.from([2]), y: Buffer.from([2]) } })

    // node-a wakes up and writes with its old epoch: a whole batch, deletions included
    const refused = await Promise.resolve(
      storeA.auth('s').keys.set({ session: { x: Buffer.from([9]), y: null, z: Buffer.from([9]) } }),
    ).catch((err: unknown) => err)
    expect(refused).toBeInstanceOf(FencedWriteError)
    expect((refused as FencedWriteError).reason).toBe('stale-epoch')
    await expect(storeA.auth('s').writeCreds(initAuthCreds())).rejects.toBeInstanceOf(FencedWriteError)
    await expect(storeA.contacts('s').upsert([{ id: 'c@s.whatsapp.net', name: 'C' }])).rejects.toBeInstanceOf(
      FencedWriteError,
    )
    expect(a.refusals).toBe(3)
    expect(fencedCount()).toBe(3)

    const now = await storeB.auth('s').keys.get('session', ['x', 'y', 'z'])
    expect(Object.keys(now).sort()).toEqual(['x', 'y'])
    expect(Buffer.from(now.x!)).toEqual(Buffer.from([2]))
    expect((await storeB.auth('s').readCreds())!.registrationId).toBe(credsB.registrationId)
    expect(await storeB.contacts('s').all()).toEqual([])
  })

  it('refuses a removal or a registry write from a node that lost the lease: the session and its data stay', async () => {
    const epochA = await acquireLease(redis.conn, 's', 'node-a', 60_000)
    const storeA = fencedStore(fixed({ node: 'node-a', epoch: epochA }))
    const unpaired = { id: 's', secretHash: 'h', createdAt: 1, qrDeadline: Date.now() + 60_000 }
    await storeA.putSession(unpaired)
    await expireNow('s') // node-a frozen past its lease; node-b adopts the session and the phone pairs it there
    const storeB = fencedStore(fixed({ node: 'node-b', epoch: await acquireLease(redis.conn, 's', 'node-b', 60_000) }))
    await storeB.auth('s').writeCreds(initAuthCreds())
    const paired = { ...unpaired, qrDeadline: null }
    await storeB.putSession(paired)
    expect(Number(await redis.conn.command(['ZCARD', 'gw:unpaired']))).toBe(0)

    // node-a wakes past the QR deadline it knew: its deletion, its reset and its old row are all refused
    await expect(storeA.deleteSession('s')).rejects.toBeInstanceOf(FencedWriteError)
    await expect(storeA.auth('s').clear()).rejects.toBeInstanceOf(FencedWriteError)
    await expect(storeA.contacts('s').clear()).rejects.toBeInstanceOf(FencedWriteError)
    await expect(storeA.putSession(unpaired)).rejects.toBeInstanceOf(FencedWriteError)
    expect(await storeB.getSession('s')).toEqual(paired)
    expect(await storeB.auth('s').readCreds()).toBeDefined()
    expect(Number(await redis.conn.command(['ZCARD', 'gw:unpaired']))).toBe(0)
    // the holder's own deletion goes through, epoch and owner included
    await storeB.deleteSession('s')
    expect(await storeB.getSession('s')).toBeUndefined()
    const left = ((await redis.conn.command(['KEYS', 'gw:{s}:*'])) as Buffer[]).map(String)
    expect(left).toEqual(['gw:{s}:lease']) // given back by its holder right after (actors/session/lifecycle.ts)
  })

  it('refuses a write with the right epoch once the lease is gone (expired, not yet taken)', async () => {
    const epoch = await acquireLease(redis.conn, 's', 'node-a', 60_000)
    const store = fencedStore(fixed({ node: 'node-a', epoch }))
    await expireNow('s')
    const err = await Promise.resolve(store.auth('s').keys.set({ session: { x: Buffer.from([1]) } })).catch(
      (e: unknown) => e,
    )
    expect((err as FencedWriteError).reason).toBe('lease-lost')
    expect(Number(await redis.conn.command(['EXISTS', sessionKeys('s').keys]))).toBe(0)
  })
})

describeWithRedis('LeaseKeeper', () => {
  it('holds, renews and releases; writes through it need the lease', async () => {
    const keeper = new LeaseKeeper(async () => redis.conn, { node: 'node-a', ttlMs: 60_000, renewMs: 60_000 })
    cleanups.push(() => keeper.stop())
    const store = fencedStore(keeper)
    await expect(store.auth('s').keys.set({ session: { x: Buffer.from([1]) } })).rejects.toBeInstanceOf(
      FencedWriteError,
    )
    expect(await keeper.acquire('s')).toBe(1)
    expect(await keeper.acquire('s')).toBe(1) // held: kept (renewed), not bumped
    await store.auth('s').keys.set({ session: { x: Buffer.from([1]) } })
    await keeper.renewAll()
    expect(keeper.held()).toEqual(['s'])
    await keeper.release('s')
    expect(Number(await redis.conn.command(['EXISTS', sessionKeys('s').lease]))).toBe(0)
    await expect(store.auth('s').keys.set({ session: { x: Buffer.from([2]) } })).rejects.toBeInstanceOf(
      FencedWriteError,
    )
  })

  it('reports a lease lost when its renewal is refused (taken over), and refuses writes from then on', async () => {
    const keeper = new LeaseKeeper(async () => redis.conn, { node: 'node-a', ttlMs: 60_000, renewMs: 60_000 })
    cleanups.push(() => keeper.stop())
    const lost: string[] = []
    keeper.onLost(id => lost.push(id))
    await keeper.acquire('s')
    await redis.conn.command(['DEL', sessionKeys('s').lease]) // as if it expired while node-a was paused
    await acquireLease(redis.conn, 's', 'node-b', 60_000)
    await keeper.renewAll()
    expect(lost).toEqual(['s'])
    expect(keeper.held()).toEqual([])
    expect(() => keeper.token('s')).toThrow(FencedWriteError)
  })

  it('stops at its deadline on the monotonic clock when renewals cannot get through', async () => {
    let clock = 1_000
    const keeper = new LeaseKeeper(async () => redis.conn, {
      node: 'node-a',
      ttlMs: 10_000,
      renewMs: 60_000,
      marginMs: 3_000,
      now: () => clock,
    })
    cleanups.push(() => keeper.stop())
    const lost: string[] = []
    keeper.onLost(id => lost.push(id))
    await keeper.acquire('s')
    clock += 6_999
    expect(keeper.token('s').epoch).toBe(1)
    clock += 1 // acquisition sent at 1000: deadline 1000 + 10000 - 3000
    expect(() => keeper.token('s')).toThrow(expect.objectContaining({ reason: 'lease-lost', code: 'SESSION_MOVING' }))
    expect(lost).toEqual(['s'])
  })

  it('counts the deadline from when a renewal was sent, not when its answer came', () => {
    let clock = 0
    const deadline = new LeaseDeadline(15_000, 3_000, () => clock)
    expect(deadline.passed()).toBe(true)
    deadline.renewed(100)
    clock = 12_099
    expect(deadline.passed()).toBe(false)
    clock = 12_100
    expect(deadline.passed()).toBe(true)
    deadline.renewed(50) // an older renewal answering late never moves the deadline back
    expect(deadline.remaining()).toBe(0)
  })
})
