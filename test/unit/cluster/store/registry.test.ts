/**
 * @module test/unit/cluster/store/registry
 * The Redis registry's look-up of a session row (src/cluster/store/registry.ts) costs the same work whether the id
 * has a row or not: a missing id unseals a decoy row of a fresh session's size, so the time of an answer does not
 * tell anyone which ids exist. Checked by what runs (DATA_KEY's cipher opens one row either way), not by timings.
 */
import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import type { BatchWriter } from '../../../../src/cluster/store/batch.js'
import type { RedisConnection } from '../../../../src/cluster/store/connection.js'
import { redisRegistry } from '../../../../src/cluster/store/registry.js'
import { dataKeySealing } from '../../../../src/cluster/store/sealing.js'
import { toStoredRecord } from '../../../../src/storage/registry-row.js'
import { createValueCipher, type ValueCipher } from '../../../../src/storage/value-cipher.js'
import type { SessionRecord } from '../../../../src/storage/types.js'

const RECORD: SessionRecord = {
  id: randomBytes(18).toString('base64url'),
  secretHash: 'ab'.repeat(32),
  createdAt: Date.now(),
  qrDeadline: Date.now() + 60_000,
  unpairedSince: Date.now(),
}

/** DATA_KEY's cipher, counting the rows it opens and how long each was. */
function countingCipher(): { cipher: ValueCipher; opened: number[] } {
  const real = createValueCipher(randomBytes(32))
  const opened: number[] = []
  const cipher: ValueCipher = {
    hideName: name => real.hideName(name),
    seal: (db, key, plain) => real.seal(db, key, plain),
    open(db, key, sealed) {
      opened.push(sealed.length)
      return real.open(db, key, sealed)
    },
  }
  return { cipher, opened }
}

describe('Redis registry look-ups', () => {
  it('unseal one row of the same size for an id with a row and for one without', async () => {
    const { cipher, opened } = countingCipher()
    const row = cipher.seal('sessions', RECORD.id, Buffer.from(JSON.stringify(toStoredRecord(RECORD))))
    // a Redis that holds RECORD's row only
    const redis = {
      command: async (args: string[]) => (args[0] === 'HGET' && args[2] === RECORD.id ? row : null),
    } as unknown as RedisConnection
    const sealing = dataKeySealing(async () => redis, cipher)
    const registry = redisRegistry(Promise.resolve(redis), sealing, {} as BatchWriter)

    expect(await registry.getSession(RECORD.id)).toEqual(RECORD)
    expect(opened).toHaveLength(1)
    expect(await registry.getSession(randomBytes(18).toString('base64url'))).toBeUndefined()
    expect(opened).toHaveLength(2)
    // the decoy is a fresh session's row: within a few bytes of a real one's
    expect(Math.abs(opened[1]! - opened[0]!)).toBeLessThan(8)
    expect(await registry.getSession('never-created')).toBeUndefined()
    expect(opened).toHaveLength(3)
  })
})
