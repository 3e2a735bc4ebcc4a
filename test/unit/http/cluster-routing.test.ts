/**
 * @module test/unit/http/cluster-routing
 * Cluster mode's first middleware, with a fake route table and a real owner server on loopback: a request for a
 * session of another node is forwarded with its method, path, query, headers and body, and the owner's status,
 * headers and body come back unchanged; the client's key travels with the peer token, and a client cannot forge
 * it; a request a peer forwarded is never forwarded again; a session between nodes answers 503 "moving"; an owner
 * that does not answer gives 503 "did not answer"; a client that hangs up aborts the forwarded request.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import express from 'express'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ClusterRoutes, Route } from '../../../src/cluster/routing.js'
import { clusterRouting } from '../../../src/http/cluster-routing.js'
import { requestClientKey } from '../../../src/http/client-key.js'
import { errorHandler } from '../../../src/http/errors.js'
import { freePort } from '../../support/processes.js'
import pino from 'pino'

const TOKEN = 'peer-token-0123456789abcdef'

interface Seen {
  method: string
  url: string
  headers: http.IncomingHttpHeaders
  body: string
}

let owner: http.Server
let ownerUrl = ''
const seen: Seen[] = []
let ownerClosed = 0

beforeAll(async () => {
  owner = http.createServer((req, res) => {
    let body = ''
    req.on('data', c => {
      body += c
    })
    req.on('close', () => {
      if (!res.writableEnded) ownerClosed++
    })
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body })
      if (req.url === '/message/slow') return // never answers: the client gives up
      res.writeHead(201, { 'content-type': 'application/json', 'x-owner': 'yes' })
      res.end(JSON.stringify({ echoed: body }))
    })
  })
  owner.listen(0, '127.0.0.1')
  await new Promise(r => owner.once('listening', r))
  ownerUrl = `http://127.0.0.1:${(owner.address() as AddressInfo).port}`
})
afterAll(() => {
  owner.closeAllConnections()
  owner.close()
})

function appWith(routeOf: (id: string) => Route, hosts: (id: string) => boolean = () => false) {
  const routes = {
    peerToken: TOKEN,
    isPeer: (t: string | undefined) => t === TOKEN,
    hosts,
    locate: async (id: string) => routeOf(id),
    placeNew: (): Route => ({ to: 'node', url: ownerUrl }),
  } as unknown as ClusterRoutes
  const app = express()
  app.use(clusterRouting(routes))
  app.all(/.*/, (req, res) => {
    res.json({ handledHere: true, client: requestClientKey(req) })
  })
  app.use(errorHandler(pino({ level: 'silent' })))
  return app
}

describe('cluster routing', () => {
  it('forwards a request for a session of another node and passes its answer back unchanged', async () => {
    seen.length = 0
    const app = appWith(() => ({ to: 'node', url: ownerUrl }))
    const r = await request(app)
      .post('/message?x=1')
      .set({ id: 's1', 'session-id': 'secret', 'content-type': 'application/json' })
      .send({ phone: '15550000001', type: 'text', text: 'hi' })
    expect(r.status).toBe(201)
    expect(r.headers['x-owner']).toBe('yes')
    expect(r.body).toEqual({ echoed: JSON.stringify({ phone: '15550000001', type: 'text', text: 'hi' }) })
    const got = seen[0]!
    expect(got).toMatchObject({ method: 'POST', url: '/message?x=1' })
    expect(got.headers).toMatchObject({ id: 's1', 'session-id': 'secret', 'x-gateway-peer': TOKEN })
    expect(got.headers['x-gateway-client']).toMatch(/127\.0\.0\.1|::1/)
  })

  it("does not pass on a client's own peer headers", async () => {
    seen.length = 0
    const app = appWith(() => ({ to: 'node', url: ownerUrl }))
    await request(app).get('/session').set({ id: 's1', 'x-gateway-peer': 'forged', 'x-gateway-client': '6.6.6.6' })
    expect(seen[0]!.headers['x-gateway-peer']).toBe(TOKEN)
    expect(seen[0]!.headers['x-gateway-client']).not.toBe('6.6.6.6')
  })

  it('believes the client key of a request forwarded by a peer, and only then', async () => {
    const app = appWith(
      () => ({ to: 'here' }),
      () => true,
    )
    const peer = await request(app)
      .get('/session')
      .set({ id: 's1', 'x-gateway-peer': TOKEN, 'x-gateway-client': '203.0.113.9' })
    expect(peer.body).toEqual({ handledHere: true, client: '203.0.113.9' })
    const forged = await request(app)
      .get('/session')
      .set({ id: 's1', 'x-gateway-peer': 'nope', 'x-gateway-client': '203.0.113.9' })
    expect(forged.body.client).not.toBe('203.0.113.9')
  })

  it('never forwards a request a peer forwarded: 503 moving instead', async () => {
    seen.length = 0
    const app = appWith(() => ({ to: 'node', url: ownerUrl }))
    const r = await request(app).get('/session').set({ id: 's1', 'x-gateway-peer': TOKEN })
    expect(r.status).toBe(503)
    expect(r.headers['retry-after']).toBe('1')
    expect(r.body).toEqual({ statusCode: 503, message: 'session is moving to another node, retry in 1 s' })
    expect(seen).toHaveLength(0)
  })

  it('answers 503 moving for a session between nodes, and 503 did-not-answer for an unreachable node', async () => {
    const moving = await request(appWith(() => ({ to: 'moving' })))
      .get('/session')
      .set({ id: 's1' })
    expect(moving.status).toBe(503)
    expect(moving.body.message).toBe('session is moving to another node, retry in 1 s')
    const dead = `http://127.0.0.1:${await freePort()}`
    const gone = await request(appWith(() => ({ to: 'node', url: dead })))
      .get('/session')
      .set({ id: 's1' })
    expect(gone.status).toBe(503)
    expect(gone.headers['retry-after']).toBe('1')
    expect(gone.body).toEqual({
      statusCode: 503,
      message: 'the node running this session did not answer, retry in 1 s',
    })
  })

  it('keeps what this node hosts, the ops paths and requests without a session here', async () => {
    const app = appWith(
      () => ({ to: 'node', url: ownerUrl }),
      id => id === 'mine',
    )
    expect((await request(app).get('/session').set({ id: 'mine' })).body.handledHere).toBe(true)
    expect((await request(app).get('/metrics').set({ id: 'other' })).body.handledHere).toBe(true)
    expect((await request(app).get('/session')).body.handledHere).toBe(true) // the header guard answers 400 there
  })

  it('sends POST /session to the least loaded node', async () => {
    seen.length = 0
    const r = await request(appWith(() => ({ to: 'here' }))).post('/session')
    expect(r.status).toBe(201)
    expect(seen[0]).toMatchObject({ method: 'POST', url: '/session' })
  })

  it('aborts the forwarded request when the client hangs up', async () => {
    const before = ownerClosed
    const server = appWith(() => ({ to: 'node', url: ownerUrl })).listen(0, '127.0.0.1')
    await new Promise(r => server.once('listening', r))
    const port = (server.address() as AddressInfo).port
    const req = http.request({ port, host: '127.0.0.1', path: '/message/slow', method: 'POST', headers: { id: 's1' } })
    req.on('error', () => undefined)
    req.end('{}')
    for (let i = 0; i < 100 && !seen.some(s => s.url === '/message/slow'); i++)
      await new Promise(r => setTimeout(r, 20))
    req.destroy()
    for (let i = 0; i < 100 && ownerClosed === before; i++) await new Promise(r => setTimeout(r, 20))
    expect(ownerClosed).toBe(before + 1)
    server.close()
  })
})
