/**
 * The reconnect backoff (src/actors/session/backoff.ts): its bounds.
 */
import { describe, expect, it } from 'vitest'
import { reconnectDelay } from '../../../../src/actors/session/backoff.js'

describe('reconnectDelay', () => {
  it('grows exponentially between half and all of the step, capped at the maximum', () => {
    expect(reconnectDelay(0, 1000, 60_000, () => 0)).toBe(500)
    expect(reconnectDelay(0, 1000, 60_000, () => 1)).toBe(1000)
    expect(reconnectDelay(3, 1000, 60_000, () => 1)).toBe(8000)
    expect(reconnectDelay(50, 1000, 60_000, () => 1)).toBe(60_000)
    expect(reconnectDelay(50, 1000, 60_000, () => 0)).toBe(30_000)
  })
})
