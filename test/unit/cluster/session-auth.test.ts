/**
 * @module test/unit/cluster/session-auth
 * A node's authentication of a session (src/cluster/session-auth.ts) does the same work for every failure before it
 * answers: the snapshot cache's check, one compare against its cache of hashes (a decoy when the id was never seen),
 * one registry read, one compare against the row (a decoy when there is none). A missing id and a wrong secret for a
 * session it has cached, one it has not, and one it runs cannot be told apart by what runs, so neither by time.
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
  it('costs the same compares and registry reads for a missing id and a wrong secret, cached or not, here or not', async () => {
    const rows = new Map([
      ['cached', row('cached', 'right-1')],
      ['uncached', row('uncached', 'right-2')],
      ['runs-here', row('runs-here', 'right-3')],
    ])
    const work = { reads: 0, compares: 0, local: 0 }
    const auth = new ClusterSessionAuth({
      readRecord: async id => {
        work.reads++
        return rows.get(id)
      },
      // the snapshot cache's check (it compares an unknown id against a decoy of its own)
      authenticLocally: () => {
        work.local++
        return false
      },
      matches: (hash: string, presented: string) => {
        work.compares++
        return secretMatches(hash, presented)
      },
    })
    expect(await auth.authenticate('cached', 'right-1', false)).toBe(true) // now in the cache
    const costOf = async (id: string, secret: string, runsHere = false) => {
      const before = { ...work }
      expect(await auth.authenticate(id, secret, runsHere)).toBe(false)
      const cost = { ...work }
      for (const k of Object.keys(cost) as (keyof typeof cost)[]) cost[k] -= before[k]
      return cost
    }
    const missing = await costOf('nowhere', 'guess')
    expect(missing).toEqual({ reads: 1, compares: 2, local: 1 })
    expect(await costOf('cached', 'guess')).toEqual(missing)
    expect(await costOf('uncached', 'guess')).toEqual(missing)
    expect(await costOf('runs-here', 'guess', true)).toEqual(missing)
    // and the right secret still passes, from the cache for the one seen before
    const before = work.reads
    expect(await auth.authenticate('cached', 'right-1', false)).toBe(true)
    expect(work.reads).toBe(before)
    expect(await auth.authenticate('uncached', 'right-2', false)).toBe(true)
  })
})
