/**
 * @module test/unit/actors/main/shard-placement
 * Where new sessions go: to a running shard until the least loaded holds SHARD_FILL sessions or is busy, only then
 * to the next shard (whose thread starts with it), and once every shard runs, to the one holding fewest. A placed
 * session stays where it is; a stored row names its shard, and rows without one fall back to `hash(id) mod SHARDS`.
 */
import { describe, expect, it } from 'vitest'
import { ShardPlacement } from '../../../../src/actors/main/shard-placement.js'
import { shardOf, shardOfRecord } from '../../../../src/protocol/shard.js'

/** A placement whose threads run once a session is placed on them, with `busy` shards marked by the test. */
function placementOf(shards: number, fill: number) {
  const running = new Set<number>()
  const busy = new Set<number>()
  const placement = new ShardPlacement({
    shards,
    fill,
    isRunning: shard => running.has(shard),
    isBusy: shard => busy.has(shard),
  })
  let n = 0
  const add = () => {
    const id = `s${n++}`
    const shard = placement.place(id, placement.choose())
    running.add(shard)
    return { id, shard }
  }
  return { placement, add, busy }
}

describe('ShardPlacement', () => {
  it('fills the running shard up to SHARD_FILL before the next one starts, then balances', () => {
    const { placement, add } = placementOf(3, 4)
    const shards = Array.from({ length: 4 }, () => add().shard)
    expect(shards).toEqual([0, 0, 0, 0])
    expect(add().shard).toBe(1) // shard 0 is full: the next thread starts
    // with two running, the least loaded (shard 1, 1 session) takes new ones until it is full too
    expect([add().shard, add().shard, add().shard]).toEqual([1, 1, 1])
    expect(add().shard).toBe(2)
    expect(placement.sessions()).toEqual([4, 4, 1])
    // every shard runs: new sessions go to the one holding fewest, past the fill
    for (let i = 0; i < 6; i++) add()
    expect(placement.sessions()).toEqual([5, 5, 5])
  })

  it('starts the next shard sooner when the running one is busy', () => {
    const { add, busy } = placementOf(2, 500)
    expect(add().shard).toBe(0)
    busy.add(0)
    expect(add().shard).toBe(1)
    busy.clear()
    expect(add().shard).toBe(0) // the least loaded of the running shards again
  })

  it('keeps a session where it was placed, and frees its place when it is forgotten', () => {
    const { placement, add } = placementOf(2, 2)
    const a = add()
    const b = add()
    expect(placement.place(a.id, 1)).toBe(0) // placed once: a second place does not move it
    expect(placement.shardOf(a.id)).toBe(0)
    placement.forget(b.id)
    placement.forget(b.id) // twice is harmless
    expect(placement.has(b.id)).toBe(false)
    expect(placement.sessions()).toEqual([1, 0])
    expect(add().shard).toBe(0) // room on shard 0 again: no second thread
  })

  it('places a session it never saw (a cluster node adopting one) when it is first asked for its shard', () => {
    const { placement } = placementOf(2, 1)
    expect(placement.has('adopted')).toBe(false)
    expect(placement.shardOf('adopted')).toBe(0)
    expect(placement.has('adopted')).toBe(true)
    expect(placement.sessions()).toEqual([1, 0])
  })
})

describe('shardOfRecord', () => {
  it("reads the row's shard, and falls back to hash(id) mod SHARDS for rows without one or past SHARDS", () => {
    const ids = ['a', 'b', 'c', 'd', 'e', 'f']
    for (const id of ids) {
      expect(shardOfRecord({ id, shard: 1 }, 2)).toBe(1)
      expect(shardOfRecord({ id }, 4)).toBe(shardOf(id, 4))
      expect(shardOfRecord({ id, shard: 3 }, 2)).toBe(shardOf(id, 2)) // SHARDS lowered since the row was written
      expect(shardOfRecord({ id, shard: -1 }, 2)).toBe(shardOf(id, 2))
    }
    // the fallback is the hash: not every id lands on shard 0
    expect(new Set(ids.map(id => shardOfRecord({ id }, 4))).size).toBeGreaterThan(1)
  })
})
