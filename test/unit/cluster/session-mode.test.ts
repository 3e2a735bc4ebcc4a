/**
 * The session system as a cluster node (cluster/session-mode.ts), on fake parts of the system: nothing stored starts
 * at boot (the ownership loop adopts what belongs here); when a shard's thread dies, the node starts again exactly
 * its own sessions of that shard (the new thread restores nothing by itself), so those sessions come back and
 * none of another shard is started twice; a session being handed over is answered "moving".
 */
import { randomUUID } from 'node:crypto'
import pino from 'pino'
import { afterEach, describe, expect, it } from 'vitest'
import { clusterMode } from '../../../src/cluster/session-mode.js'
import type { ModeParts } from '../../../src/actors/main/session-mode.js'
import { initialSnapshot, SnapshotCache } from '../../../src/actors/main/snapshot-cache.js'
import type { SessionCreation } from '../../../src/actors/main/session-mode.js'
import type { RedisStore } from '../../../src/cluster/store/redis-store.js'
import type { SessionRecord } from '../../../src/storage/types.js'

const caches: SnapshotCache[] = []
afterEach(() => {
  for (const cache of caches.splice(0)) cache.close()
})

const paired = (id: string): SessionRecord => ({ id, secretHash: `hash-${id}`, createdAt: 1, qrDeadline: null })

/** A cluster mode opened on fake parts: `shardOf` from the map, every stored record in `rows`. */
function openMode(rows: SessionRecord[], shards: Map<string, number>) {
  const started: string[] = []
  const released: string[] = []
  const cache = new SnapshotCache(`cluster-mode-${randomUUID()}`)
  caches.push(cache)
  const store = { getSession: async (id: string) => rows.find(row => row.id === id) } as unknown as RedisStore
  const mode = clusterMode({
    store,
    storeEngine: { module: 'unused', settings: {} },
    viewTokens: { mint: id => id },
    creation: {} as SessionCreation,
  })
  const parts = {
    store,
    cache,
    snapshotFromStore: async (record: SessionRecord) => initialSnapshot(record),
    pending: () => 0,
    shardOf: (id: string) => shards.get(id)!,
    startActor: async (id: string) => {
      started.push(id)
    },
    releaseActor: async (id: string) => {
      released.push(id)
    },
    isClosing: () => false,
    log: pino({ level: 'silent' }),
  } as unknown as ModeParts
  const run = mode.open(parts)
  return { mode, run, cache, started, released, sessions: mode.sessions()! }
}

describe('cluster mode', () => {
  it('starts nothing stored at boot and answers a closing node with SESSION_MOVING', async () => {
    const { mode, run, cache, started } = openMode([paired('a')], new Map([['a', 0]]))
    await run.boot()
    expect(started).toEqual([])
    expect(cache.has('a')).toBe(false)
    expect(mode.closedError).toBe('SESSION_MOVING')
    expect(run.shardOfNew()).toBeUndefined()
  })

  it("starts again this node's sessions of a lost shard, and only those", async () => {
    const rows = [paired('a'), paired('b'), paired('c')]
    const shards = new Map([
      ['a', 1],
      ['b', 0],
      ['c', 1],
    ])
    const { run, started, sessions } = openMode(rows, shards)
    for (const id of ['a', 'b']) expect(await sessions.adopt(id)).toBe(true) // 'c' runs on another node
    started.length = 0

    run.threadLost(1, id => shards.get(id) === 1)
    expect(started).toEqual(['a'])
  })

  it('answers a session being handed over as moving, then lets it go', async () => {
    const { run, sessions, released } = openMode([paired('a')], new Map([['a', 0]]))
    await sessions.adopt('a')
    const handOver = sessions.release('a')
    expect(run.isMoving('a')).toBe(true) // a snapshot dropped now is a move, not a deletion
    await expect(run.ready!('a')).rejects.toMatchObject({ code: 'SESSION_MOVING' })
    await handOver
    expect(released).toEqual(['a'])
    expect(sessions.hosts('a')).toBe(false)
  })
})
