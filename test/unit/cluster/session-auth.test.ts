/**
 * @module test/unit/cluster/session-auth
 * A node's authentication of another node's session (src/cluster/session-auth.ts) does the same work for every
 * failure before it answers: one compare against its cache (a decoy when the id was never seen), one registry read,
 * one compare against the row (a decoy when there is none). A missing id, a wrong secret for a session it has
 * cached, and one for a session it has not, cannot be told apart by what runs, so neither by time.
 */
import { describe, expect, it } from 'vitest'
import { hashSecret, secretMatches } from '../../../src/actors/main/ids.js'
import { ClusterSessionAuth } from '../../../src/cluster/session-auth.js'
import type { SessionRecord } from '../../../src/storage/types.js'

const row = (id: string, secret: string): SessionRecord => ({
  id,
  secretHash: hashSecret(secret),
  createdAt: 0,
  qrDeadline: null,
})

describe('ClusterSessionAuth', () => {
  it('costs the same compares and registry reads for a missing id and a wrong secret, cached or not', async () => {
    const rows = new Map([
      ['cached', row('cached', 'right-1')],
      ['uncached', row('uncached', 'right-2')],
    ])
    const work = { reads: 0, compares: 0 }
    const auth = new ClusterSessionAuth({
      readRecord: async id => {
        work.reads++
        return rows.get(id)
      },
      authenticLocally: () => false,
      matches: (hash: string, presented: string) => {
        work.compares++
        return secretMatches(hash, presented)
      },
    })
    expect(await auth.authenticate('cached', 'right-1', false)).toBe(true) // now in the cache
    const costOf = async (id: string, secret: string) => {
      const before = { ...work }
      expect(await auth.authenticate(id, secret, false)).toBe(false)
      return { reads: work.reads - before.reads, compares: work.compares - before.compares }
    }
    const missing = await costOf('nowhere', 'guess')
    expect(missing).toEqual({ reads: 1, compares: 2 })
    expect(await costOf('cached', 'guess')).toEqual(missing)
    expect(await costOf('uncached', 'guess')).toEqual(missing)
    // and the right secret still passes, from the cache for the one seen before
    const before = work.reads
    expect(await auth.authenticate('cached', 'right-1', false)).toBe(true)
    expect(work.reads).toBe(before)
    expect(await auth.authenticate('uncached', 'right-2', false)).toBe(true)
  })
})
