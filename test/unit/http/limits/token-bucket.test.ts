/**
 * TokenBuckets (src/http/limits/token-bucket.ts), the buckets behind every rate of the HTTP edge.
 */
import { describe, expect, it } from 'vitest'
import { TokenBuckets } from '../../../../src/http/limits/token-bucket.js'

describe('TokenBuckets', () => {
  it('refills at the rate, never above the burst, and says how long until the next token', () => {
    let now = 0
    const buckets = new TokenBuckets({ perSecond: 2, burst: 2, now: () => now })
    expect([buckets.take('a'), buckets.take('a')]).toEqual([0, 0])
    expect(buckets.take('a')).toBe(500)
    now = 250
    expect(buckets.take('a')).toBe(250)
    now = 500
    expect(buckets.take('a')).toBe(0)
    now = 60_000
    expect([buckets.take('a'), buckets.take('a'), buckets.take('a')]).toEqual([0, 0, 500])
    expect(buckets.take('b')).toBe(0)
  })

  it('says what a take would answer without spending a token', () => {
    let now = 0
    const buckets = new TokenBuckets({ perSecond: 1, burst: 1, now: () => now })
    expect([buckets.wait('a'), buckets.wait('a'), buckets.take('a')]).toEqual([0, 0, 0])
    expect([buckets.wait('a'), buckets.take('a')]).toEqual([1000, 1000])
    now = 400
    expect(buckets.wait('a')).toBe(600)
  })
})
