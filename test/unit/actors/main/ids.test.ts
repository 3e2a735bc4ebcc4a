/**
 * Session ids and secrets (src/actors/main/ids.ts): `id` and `sessionId` carry 144 random bits each, only a SHA-256 of the secret is kept, and
 * a presented secret must match exactly (compared as digests, in constant time).
 */
import { describe, expect, it } from 'vitest'
import { hashSecret, newSessionIds, secretMatches } from '../../../../src/actors/main/ids.js'

describe('session ids and secrets', () => {
  it('are 24 base64url characters (144 bits) from a CSPRNG, never repeating', () => {
    const seen = new Set<string>()
    for (let i = 0; i < 5_000; i++) {
      const { id, sessionId } = newSessionIds()
      for (const value of [id, sessionId]) {
        expect(value).toMatch(/^[A-Za-z0-9_-]{24}$/)
        expect(Buffer.from(value, 'base64url')).toHaveLength(18)
        seen.add(value)
      }
    }
    expect(seen.size).toBe(10_000)
  })

  it('the stored hash is a SHA-256, not the secret, and only the exact secret matches it', () => {
    const { sessionId } = newSessionIds()
    const stored = hashSecret(sessionId)
    expect(stored).toMatch(/^[0-9a-f]{64}$/)
    expect(stored).not.toContain(sessionId)
    expect(secretMatches(stored, sessionId)).toBe(true)
    expect(secretMatches(stored, newSessionIds().sessionId)).toBe(false)
    for (const wrong of ['', sessionId.slice(0, -1), `${sessionId}x`, sessionId.toUpperCase(), ` ${sessionId}`]) {
      expect(secretMatches(stored, wrong), JSON.stringify(wrong)).toBe(false)
    }
  })
})
