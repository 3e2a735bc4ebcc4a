/**
 * @module test/unit/cluster/front-lanes
 * Which lane cluster/front.ts gives a request, from the attacker's side:
 *   - a view link's holder is not the tenant: its waits and its requests crossing are counted apart, so however many
 *     it holds, the tenant's own wait and reads still cross; a view token is routed by the session it names, and the
 *     owner takes that session from the token, so an `id` its holder adds makes no "moving" loop;
 *   - paths are matched as the router matches them: `/Session` and `/session/` take `/session`'s lane (forwarded,
 *     counted with its waits), `POST /Session/` is creation, every node's own;
 *   - the origin the client reached a node at crosses with the forwarded request, signed, and is what the owner
 *     sees; a client's own `x-gateway-origin` is neither passed on nor believed.
 */
import http from 'node:http'
import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { PEER_CLIENT_HEADER, PEER_HEADER, PeerAuth, peerRequestOf } from '../../../src/cluster/peer-auth.js'
import {
  appWith,
  listening,
  ownerNode,
  ownerSaw,
  SECRET,
  SESSION,
  seen,
  toOwner,
  viewTokens,
} from '../../support/cluster-front.js'

ownerNode()

const TOKEN = viewTokens.mint('s1', 'r'.repeat(32))
const VIEW = { 'view-token': TOKEN }
const CURRENT = { 'if-none-match': '"current"' }

/** A request held open on `port` until destroyed (the owner never answers it). */
function held(port: number, path: string, headers: Record<string, string>, method = 'GET'): http.ClientRequest {
  const req = http.request({ port, host: '127.0.0.1', path, method, headers })
  req.on('error', () => undefined)
  req.end(method === 'POST' ? '{}' : undefined)
  return req
}

/** A peer's signed request from node-b, as node-b would send it for `client`. */
function fromPeer(path: string, headers: Record<string, string>, client = '203.0.113.9') {
  const signature = new PeerAuth(SECRET, 'node-b').sign('node-a', peerRequestOf('GET', path, headers, client))
  return { ...headers, [PEER_HEADER]: signature, [PEER_CLIENT_HEADER]: client }
}

describe('a view link holder', () => {
  it("never takes the tenant's waits: its waits have a budget of their own", async () => {
    const { app } = appWith({ waitsPerSession: 1 })
    const { server, port } = await listening(app)
    const viewWait = held(port, '/session/qr?wait=30', { ...VIEW, ...CURRENT })
    await ownerSaw('/session/qr?wait=30')
    // the view links' budget is full...
    const second = await fetch(`http://127.0.0.1:${port}/session/qr?wait=30`, { headers: { ...VIEW, ...CURRENT } })
    expect(second.status).toBe(429)
    // ...and the tenant's own wait crosses all the same
    const own = await fetch(`http://127.0.0.1:${port}/session?wait=5`, { headers: { ...SESSION, ...CURRENT } })
    expect(own.status).toBe(201)
    expect(seen.at(-1)).toMatchObject({ url: '/session?wait=5', from: 'node-a' })
    viewWait.destroy()
    server.close()
  })

  it("never takes the tenant's requests crossing: a held view request leaves the tenant its share", async () => {
    const { app } = appWith({ perSessionInFlight: 1 })
    const { server, port } = await listening(app)
    // without If-None-Match it does not wait, so it crosses on the request lane (and the owner holds it)
    const viewRead = held(port, '/session/qr?wait=30', VIEW)
    await ownerSaw('/session/qr?wait=30')
    expect((await fetch(`http://127.0.0.1:${port}/session`, { headers: SESSION })).status).toBe(201)
    // the tenant's share full: its next request is refused, and a view read still crosses
    const send = held(port, '/message/slow', SESSION, 'POST')
    await ownerSaw('/message/slow')
    expect((await fetch(`http://127.0.0.1:${port}/session`, { headers: SESSION })).status).toBe(429)
    expect((await fetch(`http://127.0.0.1:${port}/session/qr?wait=30`, { headers: VIEW })).status).toBe(429)
    viewRead.destroy()
    await new Promise(r => viewRead.once('close', r))
    expect((await request(app).get('/session/qr').set(VIEW)).status).toBe(201)
    send.destroy()
    server.close()
  })

  it('is answered once by the node of its token, whatever `id` it adds', async () => {
    // through the first node: one forward, to the token's session's node
    const first = appWith({ routeOf: id => (id === 's1' ? toOwner() : { to: 'moving' }) })
    const r = await request(first.app)
      .get('/session/qr')
      .set({ ...VIEW, id: 'bogus', 'session-id': 'bogus' })
    expect(r.status).toBe(201)
    expect(seen).toHaveLength(1)
    // on the owner: the token's session is the one it runs; the `id` added is not asked about
    const owner = appWith({ runsHere: id => id === 's1' })
    const answered = await request(owner.app)
      .get('/session/qr')
      .set(fromPeer('/session/qr', { ...VIEW, id: 'bogus' }))
    expect(answered.status).toBe(200)
    expect(answered.body).toMatchObject({ handledHere: true, client: '203.0.113.9' })
  })
})

describe('paths as the router matches them', () => {
  it('sends /Session and /session/ where /session goes, and keeps POST /Session/ here', async () => {
    const { app, checked } = appWith()
    for (const path of ['/Session', '/session/', '/SESSION/', '/Message/']) {
      const r = await request(app).get(path).set(SESSION)
      expect(r.status, path).toBe(201) // the owner's answer
      expect(seen.at(-1), path).toMatchObject({ url: path, from: 'node-a' })
    }
    const wrong = await request(app).get('/Session/').set({ id: 's1', 'session-id': 'wrong' })
    expect(wrong.status).toBe(404)
    expect(checked).toContain('s1')
    expect((await request(app).post('/Session/')).body.handledHere).toBe(true)
  })

  it("counts a waiting /Session/ with the session's waits", async () => {
    const { app } = appWith({ waitsPerSession: 1 })
    const { server, port } = await listening(app)
    const wait = held(port, '/session?wait=30', { ...SESSION, ...CURRENT })
    await ownerSaw('/session?wait=30')
    const again = await fetch(`http://127.0.0.1:${port}/Session/?wait=30`, { headers: { ...SESSION, ...CURRENT } })
    expect(again.status).toBe(429)
    wait.destroy()
    server.close()
  })
})

describe('the origin the client reached', () => {
  it('crosses with the forwarded request, signed; a client cannot set it', async () => {
    const { app } = appWith()
    await request(app)
      .post('/session/view-link')
      .set({ ...SESSION, host: 'gw.test:8443', 'x-gateway-origin': 'http://elsewhere.test' })
    expect(seen.at(-1)).toMatchObject({ url: '/session/view-link', from: 'node-a' })
    expect(seen.at(-1)?.headers['x-gateway-origin']).toBe('http://gw.test:8443')
    // a Host that is not a host names no origin
    await request(app)
      .post('/session/view-link')
      .set({ ...SESSION, host: 'user@gw.test/x' })
    expect(seen.at(-1)?.from).toBe('node-a')
    expect(seen.at(-1)?.headers['x-gateway-origin']).toBe('')
  })

  it("is the forwarded request's origin on the owner, never the address the request reached it at", async () => {
    const { app } = appWith({ runsHere: () => true })
    const origin = { id: 's1', 'x-gateway-origin': 'https://gw.test' }
    const signed = await request(app).get('/session').set(fromPeer('/session', origin))
    expect(signed.body).toMatchObject({ handledHere: true, origin: 'https://gw.test' })
    // signed for one origin, sent with another: no peer's request, and its origin is where it came
    const swapped = { ...fromPeer('/session', origin), 'x-gateway-origin': 'https://other.test' }
    const forged = await request(app).get('/session').set(swapped)
    expect(forged.body.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
  })
})
