/**
 * Admission to a shard (src/actors/main/admission.ts), unit by unit: the per-session cap, the fair share past the shard
 * limit (the session that fills the shard is the one refused), 503 only at twice the limit, and leaving.
 */
import { describe, expect, it } from 'vitest'
import { Admission } from '../../../../src/actors/main/admission.js'
import type { GatewayError } from '../../../../src/protocol/errors.js'

const refusal = (enter: () => unknown): [string, number | undefined] | undefined => {
  try {
    enter()
    return undefined
  } catch (err) {
    return [(err as GatewayError).code, (err as GatewayError).retryAfterSeconds]
  }
}

describe('admission', () => {
  it('caps the commands of one session, whatever room the shard has', () => {
    const admission = new Admission({ shards: 1, perSession: 3, shardLimit: 1000 })
    for (let i = 0; i < 3; i++) admission.enter('a', 0)
    expect(refusal(() => admission.enter('a', 0))).toEqual(['SESSION_BUSY', 1])
    expect(refusal(() => admission.enter('b', 0))).toBeUndefined()
  })

  it('past the shard limit, refuses the sessions over an even share and admits the others', () => {
    const admission = new Admission({ shards: 2, perSession: 100, shardLimit: 10 })
    for (let i = 0; i < 10; i++) admission.enter('heavy', 0)
    expect(refusal(() => admission.enter('heavy', 0))).toEqual(['SESSION_BUSY', 1])
    // A newcomer's share is 10 / 2 = 5 commands: it gets in, and so do its next four.
    for (let i = 0; i < 5; i++) expect(refusal(() => admission.enter('light', 0))).toBeUndefined()
    expect(refusal(() => admission.enter('light', 0))).toEqual(['SESSION_BUSY', 1])
    // The other shard is untouched.
    expect(refusal(() => admission.enter('elsewhere', 1))).toBeUndefined()
  })

  it('answers OVERLOADED only at twice the shard limit', () => {
    const admission = new Admission({ shards: 1, perSession: 100, shardLimit: 4 })
    for (let i = 0; i < 4; i++) admission.enter('a', 0)
    for (const id of ['b', 'c', 'd', 'e']) admission.enter(id, 0) // each holds one: within its share
    expect(refusal(() => admission.enter('f', 0))).toEqual(['OVERLOADED', 1])
  })

  it('a command that ends gives its place back, once', () => {
    const admission = new Admission({ shards: 1, perSession: 1, shardLimit: 10 })
    const leave = admission.enter('a', 0)
    expect(refusal(() => admission.enter('a', 0))).toEqual(['SESSION_BUSY', 1])
    leave()
    leave()
    expect(admission.pending('a')).toBe(0)
    admission.enter('a', 0)
    expect(admission.pending('a')).toBe(1)
  })
})
