/**
 * @module test/unit/cluster/forward-answer
 * The answer side of a forward, from the attacker's side: a client that asks for a large answer through a node and
 * never reads it holds the connection between the nodes only until the answer stands still CLUSTER_FORWARD_STALL_MS;
 * one that reads, but an answer that never ends, until CLUSTER_FORWARD_ANSWER_MS. Both times the connection to the
 * owner closes, the client's connection is cut, and the peer's pool (here one connection) serves the next request.
 */
import http from 'node:http'
import net from 'node:net'
import express from 'express'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Forwarder } from '../../../src/cluster/forward.js'
import type { AnswerBounds } from '../../../src/cluster/forward-answer.js'
import { PeerAuth } from '../../../src/cluster/peer-auth.js'
import { errorHandler } from '../../../src/http/errors.js'
import { onLoopback, type OnLoopback } from '../../support/loopback-server.js'
import { waitFor } from '../../support/wait-for.js'

const auth = new PeerAuth('a-secret-for-the-forwarder-tests-0123456', 'node-a')
const CHUNK = Buffer.alloc(64 * 1024, 'x')

/** The owner: `/large` is 256 MiB sent as fast as its reader takes it, `/endless` a chunk every 20 ms for ever. */
let owner: OnLoopback<http.Server>
/** Connections open to the owner now. */
let ownerConnections = 0
const timers = new Set<NodeJS.Timeout>()

beforeAll(async () => {
  const server = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/octet-stream' })
    if (req.url === '/small') return void res.end('small')
    if (req.url === '/endless') {
      const timer = setInterval(() => res.write(CHUNK), 20)
      timers.add(timer)
      res.on('close', () => clearInterval(timer))
      return
    }
    let left = 4_096
    const pump = () => {
      while (left-- > 0) if (!res.write(CHUNK)) return void res.once('drain', pump)
      res.end()
    }
    pump()
  })
  server.on('connection', socket => {
    ownerConnections++
    socket.on('close', () => ownerConnections--)
  })
  owner = await onLoopback(server)
})
afterAll(async () => {
  for (const timer of timers) clearInterval(timer)
  await owner.close()
})

/** A node whose forwarder has one connection to the owner and answers within `bounds`, on a loopback port. */
async function nodeWith(bounds: AnswerBounds) {
  const forwarder = new Forwarder({
    auth,
    socketsPerPeer: 1,
    waitSocketsPerPeer: 1,
    queueTimeoutMs: 60_000,
    answer: bounds,
  })
  const peer = { node: 'node-b', url: owner.url }
  const app = express()
  app.use((req, res, next) => {
    forwarder.forward(req, res, peer, Buffer.alloc(0), 'client').catch(next)
  })
  app.use(errorHandler(pino({ level: 'silent' })))
  const { port, url, close: closeServer } = await onLoopback(http.createServer(app))
  const close = async () => {
    forwarder.close()
    await closeServer()
  }
  return { port, url, close }
}

describe('a forwarded answer', () => {
  it("frees the owner's connection once a client that never reads lets the answer stand still", async () => {
    const node = await nodeWith({ answerMs: 600_000, stallMs: 300 })
    const reader = net.connect(node.port, '127.0.0.1')
    reader.on('error', () => undefined)
    reader.pause() // never reads a byte
    reader.write('GET /large HTTP/1.1\r\nhost: node-a\r\n\r\n')
    await waitFor('the answer under way to the owner', () => ownerConnections === 1, 10_000, 20)
    await waitFor('the connection to the owner closed', () => ownerConnections === 0, 20_000, 20)
    // the one connection of the pool serves the next client
    const next = await fetch(`${node.url}/small`)
    expect(next.status).toBe(200)
    expect(await next.text()).toBe('small')
    // and the slow reader, reading at last, finds its answer cut short
    let got = 0
    reader.on('data', (d: Buffer) => {
      got += d.length
    })
    const closed = new Promise(r => reader.once('close', r))
    reader.resume()
    await closed
    expect(got).toBeLessThan(4_096 * CHUNK.length)
    await node.close()
  })

  it('cuts an answer that is read but never ends, and the pool serves the next client', async () => {
    const node = await nodeWith({ answerMs: 500, stallMs: 600_000 })
    const endless = await fetch(`${node.url}/endless`)
    expect(endless.status).toBe(200)
    await expect(endless.arrayBuffer()).rejects.toThrow()
    await waitFor('the connection to the owner closed', () => ownerConnections === 0, 10_000, 20)
    const next = await fetch(`${node.url}/small`)
    expect(await next.text()).toBe('small')
    await node.close()
  })
})
