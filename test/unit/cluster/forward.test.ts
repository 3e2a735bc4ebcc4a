/**
 * @module test/unit/cluster/forward
 * The forwarder's failures are answers, never crashes: an https peer whose certificate the cluster's CA did not sign
 * is a 503 "did not answer" (one it signed is reached), a peer address nothing can reach too, and a request that
 * waits past the queue time-out for one of the peer's connections is 503 "busy", while the connection it waited
 * for stays with the request that holds it.
 */
import http from 'node:http'
import https from 'node:https'
import express from 'express'
import request from 'supertest'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Forwarder, type PeerNode } from '../../../src/cluster/forward.js'
import { PeerAuth } from '../../../src/cluster/peer-auth.js'
import { errorHandler } from '../../../src/http/errors.js'
import { makeTlsMaterial, type TlsMaterial } from '../../../src/sandbox/certs.js'
import { onLoopback, type OnLoopback } from '../../support/loopback-server.js'

const BOUNDS = { answerMs: 10_000, stallMs: 10_000 }
const auth = new PeerAuth('a-secret-for-the-forwarder-tests-0123456', 'node-a')
let tls: TlsMaterial
let tlsPeer: OnLoopback<https.Server>
let slowPeer: OnLoopback<http.Server>

beforeAll(async () => {
  tls = await makeTlsMaterial()
  tlsPeer = await onLoopback(
    https.createServer({ cert: tls.cert, key: tls.key }, (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end('{"over":"tls"}')
    }),
  )
  slowPeer = await onLoopback(http.createServer(() => undefined)) // holds every request it gets
})
afterAll(() => Promise.all([tlsPeer.close(), slowPeer.close()]))

/** An app that forwards every request to `peer` through `forwarder`. */
function forwarding(forwarder: Forwarder, peer: PeerNode) {
  const app = express()
  app.use((req, res, next) => {
    forwarder.forward(req, res, peer, Buffer.alloc(0), 'client').catch(next)
  })
  app.use(errorHandler(pino({ level: 'silent' })))
  return app
}

describe('forwarder', () => {
  it('reaches an https peer its CA signed, and answers 503 for one it did not', async () => {
    const trusting = new Forwarder({
      auth,
      socketsPerPeer: 4,
      waitSocketsPerPeer: 4,
      queueTimeoutMs: 2_000,
      answer: BOUNDS,
      ca: tls.caCert,
    })
    const peer = { node: 'node-b', url: tlsPeer.url }
    const ok = await request(forwarding(trusting, peer)).get('/session')
    expect(ok.status).toBe(200)
    expect(ok.body).toEqual({ over: 'tls' })
    const other = await makeTlsMaterial()
    const stranger = new Forwarder({
      auth,
      socketsPerPeer: 4,
      waitSocketsPerPeer: 4,
      queueTimeoutMs: 2_000,
      answer: BOUNDS,
      ca: other.caCert,
    })
    const refused = await request(forwarding(stranger, peer)).get('/session')
    expect(refused.status).toBe(503)
    expect(refused.body).toEqual({
      statusCode: 503,
      message: 'the node running this session did not answer, retry in 1 s',
    })
    trusting.close()
    stranger.close()
  })

  it('answers 503 for a peer address it cannot use', async () => {
    const forwarder = new Forwarder({
      auth,
      socketsPerPeer: 4,
      waitSocketsPerPeer: 4,
      queueTimeoutMs: 2_000,
      answer: BOUNDS,
    })
    for (const url of ['not a url', 'ftp://127.0.0.1:21', 'http://[::1:99999']) {
      const r = await request(forwarding(forwarder, { node: 'node-b', url })).get('/session')
      expect(r.status, url).toBe(503)
      expect(r.body.statusCode).toBe(503)
    }
  })

  it('answers 503 busy to a request that waits too long for a connection to the peer', async () => {
    const forwarder = new Forwarder({
      auth,
      socketsPerPeer: 1,
      waitSocketsPerPeer: 4,
      queueTimeoutMs: 300,
      answer: BOUNDS,
    })
    const app = forwarding(forwarder, { node: 'node-b', url: slowPeer.url })
    const { port, url, close } = await onLoopback(http.createServer(app))
    const holder = http.get({ port, host: '127.0.0.1', path: '/group' })
    holder.on('error', () => undefined)
    await new Promise(r => setTimeout(r, 100))
    const waiting = await fetch(`${url}/group`)
    expect(waiting.status).toBe(503)
    expect(await waiting.json()).toEqual({
      statusCode: 503,
      message: 'the node running this session is busy, retry in 1 s',
    })
    holder.destroy()
    await close()
    forwarder.close()
  })
})
