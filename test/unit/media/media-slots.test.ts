/**
 * The bound on media sends at once (src/media/media-slots.ts): per shard, first come first served, and over all
 * shards through memory they share; a waiting send gets its turn when one ends, and an aborted wait leaves no trace.
 * Then on real shard threads: a session's media send waits while the shard's one media place is taken, while the
 * shard's other commands go on.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { MediaSlots, newMediaSlotMemory } from '../../../src/media/media-slots.js'
import { cleanup, pairedSession, startSystem } from '../../support/actor-system.js'
import { startTrickleServer, type TrickleServer } from '../../support/fakes/trickle-server.js'

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
    const slots = new MediaSlots({ perShard: 2, perProcess: 10, shared: newMediaSlotMemory() })
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
    const shared = newMediaSlotMemory()
    const shard0 = new MediaSlots({ perShard: 5, perProcess: 2, shared })
    const shard1 = new MediaSlots({ perShard: 5, perProcess: 2, shared })
    const a = await shard0.acquire()
    await shard1.acquire()
    const waiting = shard1.acquire()
    expect(await settled(waiting)).toBe(false)
    a() // a place frees on the other shard: this one takes it
    await waiting
    expect(shard1.running).toBe(2)
  })

  it('forgets a wait whose client hung up', async () => {
    const slots = new MediaSlots({ perShard: 1, perProcess: 1, shared: newMediaSlotMemory() })
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
})

describe('media sends on a shard thread', () => {
  const servers: TrickleServer[] = []
  afterEach(async () => {
    await Promise.all(servers.splice(0).map(s => s.close()))
    await cleanup()
  })

  it("a media send waits for the shard's media place; other commands on the shard go on meanwhile", async () => {
    const [slowA, slowB] = [await startTrickleServer(), await startTrickleServer()]
    servers.push(slowA, slowB)
    const system = await startSystem({ SHARDS: '1', MEDIA_SENDS_PER_SHARD: '1', MEDIA_SENDS_PER_PROCESS: '4' })
    const [a, b, c] = [await pairedSession(system), await pairedSession(system), await pairedSession(system)]
    const image = (url: string) => ({
      type: 'sendMessage' as const,
      destination: { kind: 'phone' as const, phone: '5511' },
      content: { type: 'image' as const, image: { url, mimetype: 'image/png' } },
    })
    const text = {
      type: 'sendMessage' as const,
      destination: { kind: 'phone' as const, phone: '5522' },
      content: { type: 'text' as const, text: 'hi' },
    }
    const sendA = system.run(a!.id, image(slowA.url))
    await slowA.requested // a holds the shard's one media place
    let bStarted = false
    void slowB.requested.then(() => {
      bStarted = true
    })
    const sendB = system.run(b!.id, image(slowB.url))
    expect(await system.run(c!.id, text)).toEqual({ messageId: expect.any(String) })
    await new Promise(resolve => setTimeout(resolve, 300))
    expect(bStarted).toBe(false) // b's download has not begun: it waits for the place
    slowA.release()
    expect(await sendA).toEqual({ messageId: expect.any(String) })
    await slowB.requested // now b has it
    slowB.release()
    expect(await sendB).toEqual({ messageId: expect.any(String) })
  })
})
