/**
 * Session ids and secrets (src/actors/main/ids.ts), and the shard routing of ids (src/protocol/shard.ts).
 */
import { describe, expect, it } from 'vitest'
import { hashSecret, newSessionIds, secretMatches } from '../../../../src/actors/main/ids.js'
import { shardOf } from '../../../../src/protocol/shard.js'

describe('ids', () => {
  it('makes long random ids and checks secrets only against their hash', () => {
    const a = newSessionIds()
    const b = newSessionIds()
    expect(a.id).not.toBe(b.id)
    expect(a.sessionId).not.toBe(a.id)
    expect(Buffer.from(a.sessionId, 'base64url').length).toBeGreaterThanOrEqual(16)
    const hash = hashSecret(a.sessionId)
    expect(hash).toMatch(/^[0-9a-f]{64}$/)
    expect(hash).not.toContain(a.sessionId)
    expect(secretMatches(hash, a.sessionId)).toBe(true)
    expect(secretMatches(hash, b.sessionId)).toBe(false)
    expect(secretMatches(hash, '')).toBe(false)
  })

  it('routes an id to the same shard every time, and spreads ids over all shards', () => {
    const ids = Array.from({ length: 400 }, () => newSessionIds().id)
    for (const id of ids) expect(shardOf(id, 4)).toBe(shardOf(id, 4))
    const counts = [0, 0, 0, 0]
    for (const id of ids) counts[shardOf(id, 4)]!++
    for (const c of counts) expect(c).toBeGreaterThan(50)
  })
})
