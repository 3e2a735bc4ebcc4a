/**
 * @module test/unit/cluster/front
 * Cluster mode's first middleware, with a fake route table and a real owner node on loopback that checks the peer
 * signature as a node does. A client's request is authenticated on the node it reached, before anything crosses:
 * a wrong secret is a 404 there, whose body is never read. An authenticated one goes to its session's node with
 * its method, path, query, headers and body, signed for that node and that request, and the owner's answer comes
 * back unchanged. The client cannot forge the peer headers; a signature cannot be used twice or for another
 * request. A request a peer forwarded is never forwarded again. A session between nodes is waited for: an owner
 * that answers "moving" is asked again, and the request goes on where the session is up. An owner that does not
 * answer gives 503; a client that hangs up aborts the forwarded request.
 */
import http from 'node:http'
import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { PEER_CLIENT_HEADER, PEER_HEADER, PeerAuth, peerRequestOf } from '../../../src/cluster/peer-auth.js'
import type { Route } from '../../../src/cluster/routing.js'
import { MOVING_HEADER } from '../../../src/http/api-paths.js'
import {
  appWith,
  listening,
  ownerSaw,
  ownerNode,
  ownerState,
  SECRET,
  SESSION,
  seen,
  toOwner,
  viewTokens,
} from '../../support/cluster-front.js'
import { freePort } from '../../support/processes.js'
import { ViewTokenRoutes } from '../../../src/cluster/view-token-routes.js'
import { waitFor } from '../../support/wait-for.js'

ownerNode()

describe('cluster front', () => {
  it('forwards an authenticated request, signed for that node, and passes its answer back unchanged', async () => {
    const { app } = appWith()
    const r = await request(app)
      .post('/message?x=1')
      .set({ ...SESSION, 'content-type': 'application/json' })
      .send({ phone: '15550000001', type: 'text', text: 'hi' })
    expect(r.status).toBe(201)
    expect(r.headers['x-owner']).toBe('yes')
    expect(r.body).toEqual({ echoed: JSON.stringify({ phone: '15550000001', type: 'text', text: 'hi' }) })
    const got = seen[0]!
    expect(got).toMatchObject({ method: 'POST', url: '/message?x=1', from: 'node-a' })
    expect(got.headers).toMatchObject(SESSION)
    expect(got.headers[PEER_CLIENT_HEADER]).toMatch(/127\.0\.0\.1|::1/)
  })

  it('answers a wrong secret with 404 on this node: nothing crosses, the body is never read', async () => {
    const { app, checked } = appWith()
    for (const headers of [
      { id: 's1', 'session-id': 'wrong' },
      { id: 'unknown', 'session-id': 'right-secret' },
    ]) {
      const r = await request(app).post('/message').set(headers).set('content-type', 'application/json').send('{')
      expect(r.status).toBe(404)
      expect(r.body).toEqual({ statusCode: 404, message: 'session not found' })
    }
    expect(checked).toEqual(['s1', 'unknown'])
    expect(seen).toHaveLength(0)
  })

  it("does not pass on a client's own peer headers, nor believe them", async () => {
    const { app } = appWith({ runsHere: () => true })
    const forged = await request(app)
      .get('/session')
      .set({ ...SESSION, [PEER_HEADER]: 'v1 node-b node-a 1 x y', [PEER_CLIENT_HEADER]: '203.0.113.9' })
    expect(forged.body.client).not.toBe('203.0.113.9')
    const { app: app2 } = appWith()
    await request(app2)
      .get('/session')
      .set({ ...SESSION, [PEER_HEADER]: 'forged', [PEER_CLIENT_HEADER]: '6.6.6.6' })
    expect(seen[0]!.from).toBe('node-a')
    expect(seen[0]!.headers[PEER_CLIENT_HEADER]).not.toBe('6.6.6.6')
  })

  it('believes a peer signature once, for the request it was made for and the node it was made for', async () => {
    const { app } = appWith({ runsHere: () => true })
    const sender = new PeerAuth(SECRET, 'node-b')
    const client = '203.0.113.9'
    const headers = { id: 's1' }
    const sign = (path: string, to = 'node-a') => sender.sign(to, peerRequestOf('GET', path, headers, client))
    const signature = sign('/session')
    const call = (path: string, sig: string) =>
      request(app)
        .get(path)
        .set({ ...headers, [PEER_HEADER]: sig, [PEER_CLIENT_HEADER]: client })
    expect((await call('/session', signature)).body.client).toBe(client)
    // the same signature again (a replay), on another path, or made for another node: a client like any other
    expect((await call('/session', signature)).body.client).not.toBe(client)
    expect((await call('/group', sign('/session'))).body.client).not.toBe(client)
    expect((await call('/session', sign('/session', 'node-c'))).body.client).not.toBe(client)
    // made with another secret
    const stranger = new PeerAuth('another-secret-entirely-0123456789abcdef', 'node-b')
    const forged = stranger.sign('node-a', peerRequestOf('GET', '/session', headers, client))
    expect((await call('/session', forged)).body.client).not.toBe(client)
  })

  it("runs nothing of a node's genuine request that arrives late or again: its node answered its client", async () => {
    // a node frozen with a forwarded request unread wakes past the signature's time; its sender told the client to
    // retry; or the same signature comes twice
    const { app } = appWith({ runsHere: () => true })
    const headers = { id: 's1' }
    const late = new PeerAuth(SECRET, 'node-b', () => Date.now() - 20_000)
    const fresh = new PeerAuth(SECRET, 'node-b')
    const call = (sig: string) =>
      request(app)
        .get('/session')
        .set({ ...headers, [PEER_HEADER]: sig, [PEER_CLIENT_HEADER]: 'c' })
    const moving = { statusCode: 503, message: 'session is moving to another node, retry in 1 s' }
    expect((await call(late.sign('node-a', peerRequestOf('GET', '/session', headers, 'c')))).body).toEqual(moving)
    const once = fresh.sign('node-a', peerRequestOf('GET', '/session', headers, 'c'))
    expect((await call(once)).status).not.toBe(503)
    expect((await call(once)).body).toEqual(moving)
  })

  it('never forwards a request a peer forwarded: 503 moving, marked for that peer', async () => {
    const { app } = appWith()
    const sender = new PeerAuth(SECRET, 'node-c')
    const r = await request(app)
      .get('/session')
      .set({ id: 's1', [PEER_HEADER]: sender.sign('node-a', peerRequestOf('GET', '/session', { id: 's1' }, 'c')) })
      .set(PEER_CLIENT_HEADER, 'c')
    expect(r.status).toBe(503)
    expect(r.headers['retry-after']).toBe('1')
    expect(r.headers[MOVING_HEADER]).toBe('1')
    expect(r.body).toEqual({ statusCode: 503, message: 'session is moving to another node, retry in 1 s' })
    expect(seen).toHaveLength(0)
  })

  it('asks again when the owner answers "moving", and goes on once the session is up', async () => {
    ownerState.movingAnswers = 2
    const { app } = appWith()
    const r = await request(app)
      .post('/message')
      .set({ ...SESSION, 'content-type': 'application/json' })
      .send({ text: 'once' })
    expect(r.status).toBe(201)
    expect(seen).toHaveLength(3) // two "moving", then the answer; the body went each time
    expect(seen.every(s => s.body === '{"text":"once"}')).toBe(true)
  })

  it('runs the request here when the session arrives here while it waited, with the body it had read', async () => {
    ownerState.movingAnswers = 1
    let arrived = false
    const { app } = appWith({
      runsHere: () => arrived,
      routeOf: () => {
        const route = seen.length > 0 ? ({ to: 'here' } as Route) : toOwner()
        arrived = seen.length > 0
        return route
      },
    })
    const r = await request(app)
      .post('/message')
      .set({ ...SESSION, 'content-type': 'application/json' })
      .send({ text: 'here' })
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({ handledHere: true, body: { text: 'here' } })
  })

  it('waits for a session between nodes, and answers 503 moving past the wait', async () => {
    const { app } = appWith({ routeOf: () => ({ to: 'moving' }), moveWaitMs: 300 })
    const started = Date.now()
    const moving = await request(app).get('/session').set(SESSION)
    expect(Date.now() - started).toBeGreaterThanOrEqual(200)
    expect(moving.status).toBe(503)
    expect(moving.body.message).toBe('session is moving to another node, retry in 1 s')
  })

  it('answers 503 did-not-answer for a node that fails mid-request', async () => {
    const dead = `http://127.0.0.1:${await freePort()}`
    // refused connections are retried (nothing was sent) until the wait ends
    const { app } = appWith({ routeOf: () => ({ to: 'node', peer: { node: 'node-b', url: dead } }), moveWaitMs: 200 })
    const gone = await request(app).get('/session').set(SESSION)
    expect(gone.status).toBe(503)
    expect(gone.headers['retry-after']).toBe('1')
    expect(gone.body.statusCode).toBe(503)
  })

  it('reads the body before the hop, refusing one over the limit with 413', async () => {
    const { app } = appWith()
    const r = await request(app)
      .post('/message')
      .set({ ...SESSION, 'content-type': 'application/json' })
      .send({ text: 'x'.repeat(2_000) })
    expect(r.status).toBe(413)
    expect(seen).toHaveLength(0)
  })

  it("caps one session's requests crossing at once", async () => {
    const { app } = appWith({ perSessionInFlight: 1 })
    const { server, port } = await listening(app)
    const slow = http.request({ port, host: '127.0.0.1', path: '/message/slow', method: 'POST', headers: SESSION })
    slow.on('error', () => undefined)
    slow.end('{}')
    await ownerSaw('/message/slow')
    const second = await fetch(`http://127.0.0.1:${port}/session`, { headers: SESSION })
    expect(second.status).toBe(429)
    expect(await second.json()).toEqual({
      statusCode: 429,
      message: 'too many requests in flight for this session, retry in 1 s',
    })
    slow.destroy()
    server.close()
  })

  it("crosses a waiting GET /session on connections of its own, outside the session's in-flight cap", async () => {
    // one connection to the owner and one request of the session in flight, both held by a send that hangs
    const { app } = appWith({ perSessionInFlight: 1, socketsPerPeer: 1 })
    const { server, port } = await listening(app)
    const slow = http.request({ port, host: '127.0.0.1', path: '/message/slow', method: 'POST', headers: SESSION })
    slow.on('error', () => undefined)
    slow.end('{}')
    await ownerSaw('/message/slow')
    const wait = await fetch(`http://127.0.0.1:${port}/session?wait=5`, {
      headers: { ...SESSION, 'if-none-match': '"current"' },
    })
    expect(wait.status).toBe(201) // the owner's answer, not 429 in flight nor 503 busy
    expect(seen.at(-1)).toMatchObject({ url: '/session?wait=5', from: 'node-a' })
    expect(seen.at(-1)?.headers['if-none-match']).toBe('"current"')
    // a plain request of the session still finds the cap full
    expect((await fetch(`http://127.0.0.1:${port}/session`, { headers: SESSION })).status).toBe(429)
    slow.destroy()
    server.close()
  })

  it("lets at most SESSION_WAITS_PER_SESSION of one session's waits cross at once", async () => {
    const { app } = appWith({ waitsPerSession: 1 })
    const { server, port } = await listening(app)
    const headers = { ...SESSION, 'if-none-match': '"current"' }
    const held = http.request({ port, host: '127.0.0.1', path: '/session?wait=30', headers })
    held.on('error', () => undefined)
    held.end()
    await ownerSaw('/session?wait=30')
    const second = await fetch(`http://127.0.0.1:${port}/session?wait=30`, { headers })
    expect(second.status).toBe(429)
    expect(second.headers.get('retry-after')).toBe('2')
    expect(await second.json()).toEqual({
      statusCode: 429,
      message: 'too many waiting requests for this session (1), retry in 2 s',
    })
    expect(seen.filter(s => s.url === '/session?wait=30')).toHaveLength(1)
    // a request that does not wait is not one of them
    expect((await fetch(`http://127.0.0.1:${port}/session`, { headers: SESSION })).status).toBe(201)
    held.destroy()
    server.close()
  })

  it("sends GET /session/qr to the node of the token's session, and answers a token no node made here", async () => {
    const { app } = appWith()
    const token = viewTokens.mint('s1', 'r'.repeat(32))
    const shown = await request(app).get('/session/qr?wait=20').set({ 'view-token': token, 'if-none-match': '"x"' })
    expect(shown.status).toBe(201) // the owner's answer
    expect(seen.at(-1)).toMatchObject({ url: '/session/qr?wait=20', from: 'node-a' })
    expect(seen.at(-1)?.headers['view-token']).toBe(token)
    seen.length = 0
    // another session's id under the same MAC, a MAC from another secret, a plain random token: answered here
    const [idPart, random, mac] = token.split('.') as [string, string, string]
    const forged = [
      `${Buffer.from('s2').toString('base64url')}.${random}.${mac}`,
      new ViewTokenRoutes('another-secret-of-another-cluster-0123456').mint('s1', random),
      random,
      `${idPart}.${random}`,
    ]
    for (const fake of forged)
      expect((await request(app).get('/session/qr').set({ 'view-token': fake })).body.handledHere).toBe(true)
    expect(seen).toHaveLength(0)
  })

  it('keeps what this node runs, the ops paths, POST /session and requests without credentials', async () => {
    const { app } = appWith({ runsHere: id => id === 's1' })
    expect((await request(app).get('/session').set(SESSION)).body.handledHere).toBe(true)
    expect((await request(app).get('/metrics').set({ id: 'other' })).body.handledHere).toBe(true)
    expect((await request(app).get('/session')).body.handledHere).toBe(true) // the authentication answers 400 there
    expect((await request(app).post('/session')).body.handledHere).toBe(true)
    expect(seen).toHaveLength(0)
  })

  it('aborts the forwarded request when the client hangs up', async () => {
    const before = ownerState.closed
    const { server, port } = await listening(appWith().app)
    const req = http.request({ port, host: '127.0.0.1', path: '/message/slow', method: 'POST', headers: SESSION })
    req.on('error', () => undefined)
    req.end('{}')
    await ownerSaw('/message/slow')
    req.destroy()
    await waitFor('the owner to see the request closed', () => ownerState.closed > before, 2_000, 20)
    expect(ownerState.closed).toBe(before + 1)
    server.close()
  })
})
