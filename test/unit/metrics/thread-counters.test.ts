/**
 * A thread's counters (src/metrics/thread-counters.ts): increments add up per series until taken, then start again.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { countInThread, takeThreadCounts } from '../../../src/metrics/thread-counters.js'

// the thread's counters are module state: each test starts from none
afterEach(() => {
  takeThreadCounts()
})

describe('thread counters', () => {
  it('add up increments per series until taken, then start again', () => {
    countInThread('acks', { result: 'ok' })
    countInThread('acks', { result: 'ok' })
    countInThread('acks', { result: 'error' })
    countInThread('mediaBytes', {}, 1500)
    countInThread('mediaBytes', {}, 0)
    expect(takeThreadCounts()).toEqual([
      { key: 'acks', labels: { result: 'ok' }, value: 2 },
      { key: 'acks', labels: { result: 'error' }, value: 1 },
      { key: 'mediaBytes', labels: {}, value: 1500 },
    ])
    expect(takeThreadCounts()).toEqual([])
  })
})
