/**
 * Which shard owns a session (src/protocol/shard.ts): the first four bytes of the id's SHA-256, mod SHARDS. The same
 * in every process (a replacement thread, the next start, another node), so a restarted shard restores exactly its
 * own sessions; and spread over every shard.
 */
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { newSessionIds } from '../../../src/actors/main/ids.js'
import { shardOf } from '../../../src/protocol/shard.js'

describe('shardOf', () => {
  it('is SHA-256(id) mod SHARDS, nothing of this process in it', () => {
    const ids = [...Array.from({ length: 200 }, () => newSessionIds().id), '', 'ü', 'a'.repeat(1000)]
    for (const shards of [1, 2, 3, 4, 7, 64]) {
      for (const id of ids) {
        const expected = createHash('sha256').update(id, 'utf8').digest().readUInt32BE(0) % shards
        expect(shardOf(id, shards), `${id} over ${shards}`).toBe(expected)
      }
    }
  })

  it('spreads ids over every shard', () => {
    const counts = [0, 0, 0, 0]
    for (let i = 0; i < 400; i++) counts[shardOf(newSessionIds().id, 4)]!++
    for (const c of counts) expect(c).toBeGreaterThan(50)
  })
})
