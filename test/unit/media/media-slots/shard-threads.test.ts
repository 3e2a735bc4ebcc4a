/**
 * Media sends on real shard threads (the fake link downloads an image, then does its media work in the slot the
 * actor gives, as the Baileys link does): a send waiting on a slow origin holds no CPU slot, so a neighbour's media
 * goes through even with one slot in the process; the CPU work itself is bounded over every shard; the download
 * places bound the process and hold until the send ends; and a shard thread that dies holding a place gives it
 * back when its replacement starts.
 */
import http from 'node:http'
import { afterEach, beforeAll, afterAll, describe, expect, it } from 'vitest'
import type { GatewayError } from '../../../../src/protocol/errors.js'
import {
  cleanup,
  fakeEvents,
  pairedSession,
  sessionOnShard,
  snapshotOf,
  startSystem,
  waitForQr,
  fake,
} from '../../../support/actor-system.js'
import type { FakeEvent } from '../../../support/fakes/fake-link.js'
import { startTrickleServer, type TrickleServer } from '../../../support/fakes/trickle-server.js'
import { waitFor } from '../../../support/wait-for.js'
import { onLoopback } from '../../../support/loopback-server.js'

const image = (url: string, caption?: string) => ({
  type: 'sendMessage' as const,
  destination: { kind: 'phone' as const, phone: '5511' },
  content: { type: 'image' as const, image: { url, mimetype: 'image/png' }, ...(caption ? { text: caption } : {}) },
})

/** A fast origin that counts its requests. */
let fast: { url: string; requests: number; close(): Promise<void> }
beforeAll(async () => {
  const served = await onLoopback(
    http.createServer((_req, res) => {
      fast.requests++
      res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(2048, 1))
    }),
  )
  fast = { url: `${served.url}/fast.png`, requests: 0, close: served.close }
})
afterAll(() => fast.close())

const slowServers: TrickleServer[] = []
const slowServer = async () => {
  const server = await startTrickleServer()
  slowServers.push(server)
  return server
}
afterEach(async () => {
  await Promise.all(slowServers.splice(0).map(s => s.close()))
  await cleanup()
})

const did = (events: FakeEvent[], id: string, event: string) => events.some(e => e.session === id && e.event === event)
/** The fake's events come over a BroadcastChannel, after the reply may have. */
const seen = (events: FakeEvent[], id: string, event: string) =>
  waitFor(`${event} of ${id}`, () => did(events, id, event), 10_000, 10)

describe('media sends on shard threads', () => {
  it("a download holds no CPU slot: with one in the process, a neighbour's media send completes meanwhile", async () => {
    const slow = await slowServer()
    const system = await startSystem({ SHARDS: '1', MEDIA_SENDS_PER_SHARD: '1', MEDIA_SENDS_PER_PROCESS: '1' })
    const events = fakeEvents()
    const [a, b] = [await pairedSession(system), await pairedSession(system)]
    const sendA = system.run(a.id, image(slow.url))
    await slow.requested // a's download has begun and will not end until released
    expect(await system.run(b.id, image(fast.url))).toEqual({ messageId: expect.any(String) })
    await seen(events, b.id, 'media-work-done')
    expect(did(events, a.id, 'downloaded')).toBe(false)
    slow.release()
    expect(await sendA).toEqual({ messageId: expect.any(String) })
    await seen(events, a.id, 'media-work-done')
  })

  it('the media work runs in MEDIA_SENDS_PER_PROCESS slots over every shard, one after another here', async () => {
    const system = await startSystem({ SHARDS: '2', MEDIA_SENDS_PER_SHARD: '2', MEDIA_SENDS_PER_PROCESS: '1' })
    const events = fakeEvents()
    const sessions = [await sessionOnShard(system, 0), await sessionOnShard(system, 1), await sessionOnShard(system, 1)]
    for (const s of sessions) {
      await waitForQr(system, s)
      fake(s.id, 'scan')
      await waitFor('connected', () => snapshotOf(system, s)?.isConnected, 20_000, 25)
    }
    const sent = await Promise.all(sessions.map(s => system.run(s.id, image(fast.url, 'work:200'))))
    for (const r of sent) expect(r).toEqual({ messageId: expect.any(String) })
    // each send's work, from its start to its end (stamped in its thread): none overlaps another
    await waitFor("every send's work done", () => events.filter(e => e.event === 'media-work-done').length === 3)
    const at = (event: string) =>
      events
        .filter(e => e.event === event)
        .map(e => e.at as number)
        .sort((x, y) => x - y)
    const [starts, ends] = [at('media-work-started'), at('media-work-done')]
    expect(starts).toHaveLength(3)
    expect(ends).toHaveLength(3)
    for (let i = 1; i < 3; i++) expect(starts[i]).toBeGreaterThanOrEqual(ends[i - 1]!)
  })

  it('MEDIA_DOWNLOADS_PER_PROCESS bounds the sends past their first byte over every shard, until each ends', async () => {
    const slow = await slowServer()
    const system = await startSystem({ SHARDS: '2', MEDIA_DOWNLOADS_PER_PROCESS: '1' })
    const [a, b] = [await sessionOnShard(system, 0), await sessionOnShard(system, 1)]
    for (const s of [a, b]) {
      await waitForQr(system, s)
      fake(s.id, 'scan')
      await waitFor('connected', () => snapshotOf(system, s)?.isConnected, 20_000, 25)
    }
    const sendA = system.run(a.id, image(slow.url))
    await slow.requested
    const before = fast.requests
    const sendB = system.run(b.id, image(fast.url))
    await new Promise(resolve => setTimeout(resolve, 300))
    expect(fast.requests).toBe(before) // b has not begun downloading: the one place is a's
    slow.release()
    expect(await sendA).toEqual({ messageId: expect.any(String) })
    expect(await sendB).toEqual({ messageId: expect.any(String) })
    expect(fast.requests).toBe(before + 1)
  })

  it("one media send per session: a session's status waits for its message's download, a neighbour's does not", async () => {
    const slow = await slowServer()
    const system = await startSystem({ SHARDS: '1' })
    const events = fakeEvents()
    const [a, b] = [await pairedSession(system), await pairedSession(system)]
    const sendA = system.run(a.id, image(slow.url))
    await slow.requested
    const statusA = system.run(a.id, {
      type: 'postStatus',
      content: { type: 'image', image: { url: fast.url, mimetype: 'image/png' } },
    })
    const before = fast.requests
    expect(await system.run(b.id, image(fast.url))).toEqual({ messageId: expect.any(String) })
    await new Promise(resolve => setTimeout(resolve, 300))
    expect(did(events, a.id, 'status-started')).toBe(false)
    expect(fast.requests).toBe(before + 1) // b's image only
    slow.release()
    expect(await sendA).toEqual({ messageId: expect.any(String) })
    expect(await statusA).toEqual({ statusId: expect.any(String) })
    await waitFor(
      "both of a's media works",
      () => events.filter(e => e.session === a.id && e.event === 'media-work-done').length === 2,
    )
    const ofA = events.filter(e => e.session === a.id && e.event !== 'link-created').map(e => e.event)
    expect(ofA.indexOf('status-started')).toBeGreaterThan(ofA.indexOf('send-done'))
  })

  it('a shard thread that dies downloading gives its place back: the next send in the process goes through', async () => {
    const slow = await slowServer()
    const system = await startSystem({ SHARDS: '2', MEDIA_DOWNLOADS_PER_PROCESS: '1' })
    const [a, victim, b] = [
      await sessionOnShard(system, 0),
      await sessionOnShard(system, 0),
      await sessionOnShard(system, 1),
    ]
    for (const s of [a, victim, b]) {
      await waitForQr(system, s)
      fake(s.id, 'scan')
      await waitFor('connected', () => snapshotOf(system, s)?.isConnected, 20_000, 25)
    }
    const sendA = system.run(a.id, image(slow.url)).catch((err: GatewayError) => err)
    await slow.requested // shard 0 holds the process's one place
    const crash = system.run(victim.id, {
      type: 'sendMessage',
      destination: { kind: 'phone', phone: '5511' },
      content: { type: 'text', text: 'crash' },
    })
    await expect(crash).rejects.toMatchObject({ code: 'WORKER_CRASHED' })
    expect(await sendA).toMatchObject({ code: 'WORKER_CRASHED' })
    expect(await system.run(b.id, image(fast.url))).toEqual({ messageId: expect.any(String) })
  })
})
