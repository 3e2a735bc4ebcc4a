/**
 * @module test/system/cluster/answer-side
 * Two nodes, attacked through the one that does not run the sessions, each attack checked from the neighbour's side:
 *   - a tenant that asks for a large answer (a channel page of ~30 MB) and never reads it holds only its share of
 *     the node's connections to the owner (CLUSTER_FORWARD_SESSION_PERCENT of CLUSTER_FORWARD_SOCKETS): another
 *     tenant's reads and sends through that node keep answering; and it holds them only until its answers stood
 *     still CLUSTER_FORWARD_STALL_MS: then they are cut ("cut" on /metrics) and its share is free again;
 *   - a view link's holder never makes the tenant's own waiting GET /session answer 429, on either node;
 *   - a view token with an `id` of someone else's (or of nobody's) crosses once, to its session's node, and is
 *     answered there: the QR for a real token, 404 for a token a node signed but never issued; no "moving" loop;
 *   - `/Session` and `/SESSION/` are forwarded like `/session`;
 *   - a view link asked through the node that does not run the session names the address the client used, never
 *     the owner's.
 */
import net from 'node:net'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { ViewTokenRoutes } from '../../../src/cluster/view-token-routes.js'
import { type PairedSession, startCluster, type TestCluster } from '../../support/cluster.js'
import { describeWithRedis } from '../../support/redis-server.js'
import { headersOf, postWorld, type Session } from '../../support/system/harness.js'
import { waitFor } from '../../support/wait-for.js'

const CHANNEL = '120363200000000777@newsletter'
/** 100 posts of 50,000 control characters: 5 MB on the platform's wire, each character 6 bytes of JSON (`\u0007`). */
const POSTS = Array.from({ length: 100 }, () => ({ type: 'text' as const, text: '\u0007'.repeat(50_000) }))

describeWithRedis('cluster mode: the answer side and the view door', () => {
  let cluster: TestCluster
  /** Two paired sessions node-2 runs: the slow reader and its neighbour. */
  let reader: PairedSession
  let neighbour: PairedSession
  /** A session awaiting its scan, and the node running it and the other one. */
  let unpaired: Session
  let owner: number
  let other: number
  const url = (index: number) => cluster.nodes[index]!.url
  const forwarded = (index: number, result: string) =>
    cluster.metric(index, 'gateway_cluster_forwarded_requests_total', { result })

  beforeAll(async () => {
    cluster = await startCluster(2, {
      CLUSTER_FORWARD_SOCKETS: '4',
      CLUSTER_FORWARD_SESSION_PERCENT: '50',
      CLUSTER_FORWARD_QUEUE_MS: '1000',
      CLUSTER_FORWARD_STALL_MS: '8000',
      CLUSTER_MOVE_WAIT_MS: '3000',
      // the whole page in one answer, with room for two of them; no write time-out before the forward's own bounds
      CHANNEL_PAGE_MAX_BYTES: String(64 << 20),
      ANSWER_BYTES_PER_PROCESS: String(256 << 20),
      ANSWER_WRITE_TIMEOUT_MS: '600000',
    })
    await cluster.addContacts(['15550700100'])
    await postWorld(cluster.sandbox, {
      channels: [{ id: CHANNEL, name: 'Loud', owner: '15550700100', messages: POSTS }],
    })
    for (let phone = 15550700000; !neighbour; phone++) {
      await cluster.pairSessions(1, phone)
      await cluster.settled()
      const onSecond = []
      for (const s of cluster.sessions) if ((await cluster.ownerOf(s)) === 'node-2') onSecond.push(s)
      ;[reader, neighbour] = onSecond as [PairedSession, PairedSession]
      expect(cluster.sessions.length).toBeLessThan(8)
    }
    unpaired = await cluster.nodes[0]!.createSession()
    const lease = await waitFor('a lease for the unpaired session', () => cluster.ownerOf(unpaired))
    owner = lease === 'node-1' ? 0 : 1
    other = 1 - owner
    // its first QR (which stays a minute): the view tests wait on an answer that does not change by itself
    await waitFor('a QR', async () => (await cluster.nodes[0]!.session(unpaired)).body.qrcode || undefined, 30_000)
  }, 240_000)

  afterAll(async () => {
    await cluster?.close()
  })

  it("never lets a view link's waits make the tenant's own wait 429, on either node", async () => {
    const link = await fetch(`${url(other)}/session/view-link`, { method: 'POST', headers: headersOf(unpaired) })
    expect(link.status).toBe(200)
    const token = new URLSearchParams(new URL((await link.json()).url).hash.slice(1)).get('view')!
    const qr = await fetch(`${url(owner)}/session/qr`, { headers: { 'view-token': token } })
    const viewEtag = qr.headers.get('etag')!
    const held: AbortController[] = []
    try {
      // SESSION_WAITS_PER_SESSION view waits through the node that does not run the session: they wait on the owner
      for (let i = 0; i < 4; i++) {
        const abort = new AbortController()
        held.push(abort)
        fetch(`${url(other)}/session/qr?wait=30`, {
          headers: { 'view-token': token, 'if-none-match': viewEtag },
          signal: abort.signal,
        }).catch(() => undefined)
      }
      await waitFor('the view waits held', async () => (await cluster.metric(owner, 'gateway_session_waits')) === 4)
      // the view links' budget is full on both nodes
      for (const index of [other, owner])
        await waitFor(
          `the view waits held through node-${index + 1}`,
          async () =>
            (
              await fetch(`${url(index)}/session/qr?wait=1`, {
                headers: { 'view-token': token, 'if-none-match': viewEtag },
              })
            ).status === 429,
          10_000,
          100,
        )
      // the tenant's own wait still waits, on both nodes: unchanged, it ends with 304, never 429
      const shown = await fetch(`${url(other)}/session`, { headers: headersOf(unpaired) })
      const etag = shown.headers.get('etag')!
      for (const index of [other, owner]) {
        const own = await fetch(`${url(index)}/session?wait=1`, {
          headers: { ...headersOf(unpaired), 'if-none-match': etag },
        })
        expect(own.status, `node-${index + 1}`).toBe(304)
      }
      // and the view links' waits were held all along
      const still = await fetch(`${url(other)}/session/qr?wait=1`, {
        headers: { 'view-token': token, 'if-none-match': viewEtag },
      })
      expect(still.status).toBe(429)
    } finally {
      for (const abort of held) abort.abort()
    }
  }, 60_000)

  it('answers a view token once, on its session node, whatever `id` comes with it', async () => {
    const linked = await forwarded(other, 'ok')
    const link = await fetch(`${url(other)}/session/view-link`, { method: 'POST', headers: headersOf(unpaired) })
    await waitFor('the link forwarded', async () => (await forwarded(other, 'ok')) > linked, 5_000, 50)
    const token = new URLSearchParams(new URL((await link.json()).url).hash.slice(1)).get('view')!
    // a token a node signed for the session but never issued (the cluster secret is the test's own)
    const unissued = new ViewTokenRoutes(cluster.secret).mint(unpaired.id, 'n'.repeat(32))
    for (const [viewToken, status] of [
      [token, 200],
      [unissued, 404],
    ] as const) {
      for (const id of ['AAAAAAAAAAAAAAAAAAAAAAAA', reader.id]) {
        const [ok, moving] = [await forwarded(other, 'ok'), await forwarded(other, 'moving')]
        const r = await fetch(`${url(other)}/session/qr`, { headers: { 'view-token': viewToken, id } })
        expect(r.status, `${id}`).toBe(status)
        if (status === 404)
          expect(await r.json()).toEqual({ statusCode: 404, message: 'view link not found or expired' })
        await waitFor('the forward counted', async () => (await forwarded(other, 'ok')) >= ok + 1, 5_000, 50)
        expect(await forwarded(other, 'ok')).toBe(ok + 1)
        expect(await forwarded(other, 'moving')).toBe(moving)
      }
    }
  })

  it('forwards /Session and /SESSION/ like /session', async () => {
    for (const path of ['/Session', '/SESSION/', '/session/']) {
      const before = await forwarded(other, 'ok')
      const r = await fetch(`${url(other)}${path}`, { headers: headersOf(unpaired) })
      expect(r.status, path).toBe(200)
      expect(await r.json()).toMatchObject({ id: unpaired.id })
      await waitFor(`${path} forwarded`, async () => (await forwarded(other, 'ok')) > before, 5_000, 50)
    }
  })

  it('names the address the client used in a view link asked through the other node', async () => {
    const link = await fetch(`${url(other)}/session/view-link`, { method: 'POST', headers: headersOf(unpaired) })
    expect(link.status).toBe(200)
    const named = new URL((await link.json()).url)
    expect(named.origin).toBe(new URL(url(other)).origin)
    expect(named.origin).not.toBe(new URL(url(owner)).origin)
  })

  it('keeps a never-reading tenant to its share of the connections between nodes, and cuts it loose', async () => {
    const port = Number(new URL(url(0)).port)
    const slow: net.Socket[] = []
    const page = `/channel/message?channelId=${encodeURIComponent(CHANNEL)}`
    const auth = Object.entries(headersOf(reader))
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('')
    try {
      // one after another: each reads the head of its answer, then no more
      const heads: string[] = []
      for (let i = 0; i < 6; i++) {
        const socket = net.connect(port, '127.0.0.1')
        socket.on('error', () => undefined)
        slow.push(socket)
        const head = new Promise<string>(resolve =>
          socket.once('data', (d: Buffer) => {
            socket.pause()
            resolve(d.subarray(0, 12).toString('latin1'))
          }),
        )
        socket.write(`GET ${page} HTTP/1.1\r\nhost: node-1\r\n${auth}\r\n`)
        heads.push(await head)
      }
      // its share (2 of 4) is held by answers it does not read; the rest, and its next request, refused
      expect(heads).toEqual(['HTTP/1.1 200', 'HTTP/1.1 200', ...Array(4).fill('HTTP/1.1 429')])
      expect((await fetch(`${url(0)}/session`, { headers: headersOf(reader) })).status).toBe(429)
      // the neighbour's reads and sends through the same node cross all the same
      for (let i = 0; i < 3; i++) {
        const read = await fetch(`${url(0)}/session`, { headers: headersOf(neighbour) })
        expect({ status: read.status, body: await read.json() }).toMatchObject({
          status: 200,
          body: { id: neighbour.id, isConnected: true },
        })
      }
      for (let i = 0; i < 2; i++) {
        const sent = await fetch(`${url(0)}/message`, {
          method: 'POST',
          headers: { ...headersOf(neighbour), 'content-type': 'application/json' },
          body: JSON.stringify({ phone: cluster.contacts[0], type: 'text', text: `beside a slow reader ${i}` }),
        })
        expect({ status: sent.status, body: await sent.json() }).toMatchObject({
          status: 200,
          body: { messageId: expect.any(String) },
        })
      }
      // its answers stood still: cut, and its share is its own again
      await waitFor('the stalled answers cut', async () => (await forwarded(0, 'cut')) >= 2, 60_000, 500)
      await waitFor(
        "the reader's share free",
        async () => (await fetch(`${url(0)}/session`, { headers: headersOf(reader) })).status === 200,
        30_000,
        250,
      )
    } finally {
      for (const s of slow) s.destroy()
    }
  }, 120_000)
})
