/**
 * When a thread runs its memory-reducing collection (src/actors/idle-heap.ts): only once it has been quiet for two
 * samples in a row and its heap has grown by 8 MB since the last one, never while it is busy, and at most once a
 * minute. (What the collection gives back: test/unit/actors/worker/heap-limit.test.ts.)
 */
import { describe, expect, it } from 'vitest'
import { IdleHeapReducer } from '../../../src/actors/idle-heap.js'

const MB = 1024 * 1024

function reducerWithHeap(startMb: number) {
  const state = { committed: startMb * MB, collections: 0, afterCollection: 10 * MB }
  const reducer = new IdleHeapReducer({
    committed: () => state.committed,
    collect: () => {
      state.collections++
      state.committed = state.afterCollection
    },
  })
  return { reducer, state }
}

describe('IdleHeapReducer', () => {
  it('collects a grown heap after two quiet samples in a row, not after one', () => {
    const { reducer, state } = reducerWithHeap(40)
    expect(reducer.sample(0.01, 0)).toBe(false)
    expect(reducer.sample(0.9, 2_000)).toBe(false)
    expect(reducer.sample(0.01, 4_000)).toBe(false)
    expect(reducer.sample(0.01, 6_000)).toBe(true)
    expect(state.collections).toBe(1)
  })

  it('never collects while the thread is busy, however much the heap grew', () => {
    const { reducer, state } = reducerWithHeap(200)
    for (let t = 0; t < 600_000; t += 2_000) reducer.sample(0.2, t)
    expect(state.collections).toBe(0)
  })

  it('collects again only after a minute, and only when the heap grew by 8 MB since the last collection', () => {
    const { reducer, state } = reducerWithHeap(40)
    reducer.sample(0, 0)
    expect(reducer.sample(0, 2_000)).toBe(true) // heap now 10 MB
    state.committed = 60 * MB
    for (let t = 4_000; t < 62_000; t += 2_000) expect(reducer.sample(0, t)).toBe(false)
    expect(reducer.sample(0, 62_000)).toBe(true)
    state.committed = state.afterCollection + 7 * MB
    for (let t = 64_000; t < 300_000; t += 2_000) expect(reducer.sample(0, t)).toBe(false)
    state.committed += 2 * MB
    expect(reducer.sample(0, 300_000)).toBe(true)
    expect(state.collections).toBe(3)
  })

  it('does not collect a heap that has not grown', () => {
    const { reducer, state } = reducerWithHeap(7)
    for (let t = 0; t < 120_000; t += 2_000) reducer.sample(0, t)
    expect(state.collections).toBe(0)
  })
})
