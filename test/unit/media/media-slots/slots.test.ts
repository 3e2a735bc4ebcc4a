/**
 * The counted places of media sends (src/media/media-slots.ts): per shard, first come first served; over all shards
 * through memory they share; per session; a waiting send gets its turn when one ends, an aborted wait leaves no
 * trace, and the places a dead shard thread held come back when its replacement starts.
 */
import { describe, expect, it } from 'vitest'
import { MediaSlots, newMediaSlotMemory } from '../../../../src/media/media-slots.js'

const settled = async (p: Promise<unknown>): Promise<boolean> => {
  let done = false
  void p.then(
    () => {
      done = true
    },
    () => {
      done = true
    },
  )
  await new Promise(resolve => setTimeout(resolve, 50))
  return done
}

describe('media slots', () => {
  it('lets perShard sends run on a shard and queues the next, in arrival order', async () => {
    const slots = new MediaSlots({ shard: 0, perShard: 2, perProcess: 10, shared: newMediaSlotMemory(1) })
    const first = await slots.acquire()
    await slots.acquire()
    const order: string[] = []
    const third = slots.acquire().then(r => {
      order.push('third')
      return r
    })
    const fourth = slots.acquire().then(r => {
      order.push('fourth')
      return r
    })
    expect(await settled(third)).toBe(false)
    first()
    first() // a second release of the same slot gives nothing back
    await third
    expect(await settled(fourth)).toBe(false)
    ;(await third)()
    await fourth
    expect(order).toEqual(['third', 'fourth'])
  })

  it('bounds the process over every shard through shared memory', async () => {
    const shared = newMediaSlotMemory(2)
    const shard0 = new MediaSlots({ shard: 0, perShard: 5, perProcess: 2, shared })
    const shard1 = new MediaSlots({ shard: 1, perShard: 5, perProcess: 2, shared })
    const a = await shard0.acquire()
    await shard1.acquire()
    const waiting = shard1.acquire()
    expect(await settled(waiting)).toBe(false)
    a() // a place frees on the other shard: this one takes it
    await waiting
    expect(shard1.running).toBe(2)
  })

  it('forgets a wait whose client hung up', async () => {
    const slots = new MediaSlots({ shard: 0, perShard: 1, perProcess: 1, shared: newMediaSlotMemory(1) })
    const held = await slots.acquire()
    const controller = new AbortController()
    const gone = slots.acquire(controller.signal)
    controller.abort()
    await expect(gone).rejects.toBeDefined()
    held()
    const next = await slots.acquire() // the aborted wait took nothing
    next()
    expect(slots.running).toBe(0)
  })

  it("caps each session: a session's second send waits for its first, and lets other sessions pass", async () => {
    const slots = new MediaSlots({
      shard: 0,
      perSession: 1,
      perShard: 10,
      perProcess: 10,
      shared: newMediaSlotMemory(1),
    })
    const first = await slots.acquire(undefined, 'a')
    const second = slots.acquire(undefined, 'a')
    expect(await settled(second)).toBe(false)
    const other = await slots.acquire(undefined, 'b') // not behind a's waiting send
    expect(slots.running).toBe(2)
    first()
    ;(await second)()
    other()
    expect(slots.running).toBe(0)
  })

  it('a waiter held back by its own session cap lets the next in line take a place that frees', async () => {
    const slots = new MediaSlots({
      shard: 0,
      perSession: 1,
      perShard: 2,
      perProcess: 10,
      shared: newMediaSlotMemory(1),
    })
    const a1 = await slots.acquire(undefined, 'a')
    const x = await slots.acquire(undefined, 'x') // the shard is full
    const a2 = slots.acquire(undefined, 'a') // first in line, but a already holds its one place
    const b = slots.acquire(undefined, 'b')
    x()
    const releaseB = await b // b took the freed place; a2 still waits for a's own send
    expect(await settled(a2)).toBe(false)
    a1()
    ;(await a2)()
    releaseB()
    expect(slots.running).toBe(0)
  })

  it('runs work in a place and gives it back however the work ends', async () => {
    const slots = new MediaSlots({ shard: 0, perShard: 1, perProcess: 1, shared: newMediaSlotMemory(1) })
    await expect(slots.run(async () => Promise.reject(new Error('failed')))).rejects.toThrow('failed')
    expect(await slots.run(async () => slots.running)).toBe(1)
    expect(slots.running).toBe(0)
  })

  it('gives back the places of a shard thread that died holding them, once its replacement starts', async () => {
    const shared = newMediaSlotMemory(2)
    const dead = new MediaSlots({ shard: 1, perShard: 5, perProcess: 2, shared })
    await dead.acquire()
    await dead.acquire() // the thread dies holding both: nobody will call their releases
    const survivor = new MediaSlots({ shard: 0, perShard: 5, perProcess: 2, shared })
    const waiting = survivor.acquire()
    expect(await settled(waiting)).toBe(false)
    new MediaSlots({ shard: 1, perShard: 5, perProcess: 2, shared }) // the replacement thread of shard 1
    const release = await waiting
    await survivor.acquire() // both places are free again
    release()
  })
})
