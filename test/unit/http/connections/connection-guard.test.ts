/**
 * The connection caps from the attacker's side: one address opening connections past CONNECTIONS_PER_CLIENT, and
 * many addresses past CONNECTIONS_PER_PROCESS, get a 503 in the spec's shape with Retry-After on the raw socket,
 * counted in /metrics, while a client from another address is served; a proxy TRUST_PROXY believes counts only in
 * the total. All addresses are loopback (127.0.0.0/8).
 */
import { afterEach, describe, expect, it } from 'vitest'
import type { RequestHandler } from 'express'
import { setForwardedClient } from '../../../../src/http/client-key.js'
import { trustsPeer } from '../../../../src/http/connections/connection-guard.js'
import { type GuardedGateway, serveGuarded } from '../../../support/fakes/guarded-gateway.js'
import { waitFor } from '../../../support/wait-for.js'

let gateway: GuardedGateway | undefined
afterEach(async () => {
  await gateway?.close()
  gateway = undefined
})

/** A raw answer's status line, Retry-After and JSON body. */
function parseRaw(text: string): { status: string; retryAfter: string | undefined; body: unknown } {
  const [head = '', body = ''] = text.split('\r\n\r\n')
  const lines = head.split('\r\n')
  const retryAfter = lines
    .find(l => l.toLowerCase().startsWith('retry-after:'))
    ?.split(':')[1]
    ?.trim()
  return { status: lines[0] ?? '', retryAfter, body: JSON.parse(body) }
}

/** GET /healthz over an open raw connection: its status line. */
async function healthz(socket: import('node:net').Socket): Promise<string> {
  const first = new Promise<string>(resolve => socket.once('data', chunk => resolve(String(chunk).split('\r\n')[0]!)))
  socket.write('GET /healthz HTTP/1.1\r\nhost: x\r\n\r\n')
  return first
}

describe('connection caps', () => {
  it('refuses the connection past CONNECTIONS_PER_CLIENT from one address, and serves another address', async () => {
    const g = (gateway = await serveGuarded({ CONNECTIONS_PER_CLIENT: '3' }))
    const held = [await g.connect(), await g.connect(), await g.connect()]
    const refused = await g.connect()
    expect(parseRaw(await refused.answer)).toEqual({
      status: 'HTTP/1.1 503 too many connections from this client, retry in 1 s',
      retryAfter: '1',
      body: { statusCode: 503, message: 'too many connections from this client, retry in 1 s' },
    })
    // a request sent on a refused connection is never served
    const other = await g.connect('127.0.0.2')
    expect(await healthz(other.socket)).toBe('HTTP/1.1 200 OK')
    expect(await healthz(held[0]!.socket)).toBe('HTTP/1.1 200 OK')

    // an HTTP client sees the refusal as an answer like any other
    const fetched = await fetch(`${g.url}/healthz`)
    expect([fetched.status, fetched.headers.get('retry-after')]).toEqual([503, '1'])
    expect(await fetched.json()).toEqual({
      statusCode: 503,
      message: 'too many connections from this client, retry in 1 s',
    })
    for (const c of [...held, other]) c.socket.destroy()
    await waitFor('every connection closed', () => g.connections.open === 0)
    expect(await g.metric('gateway_http_connections_refused_total', { cap: 'client' })).toBe(2)
  })

  it('refuses the connection past CONNECTIONS_PER_PROCESS whatever its address', async () => {
    const g = (gateway = await serveGuarded({ CONNECTIONS_PER_CLIENT: '0', CONNECTIONS_PER_PROCESS: '3' }))
    const held = [await g.connect('127.0.0.2'), await g.connect('127.0.0.3'), await g.connect('127.0.0.4')]
    const refused = await g.connect('127.0.0.5')
    expect(parseRaw(await refused.answer)).toMatchObject({
      retryAfter: '1',
      body: { statusCode: 503, message: 'too many connections to this server, retry in 1 s' },
    })
    held[0]!.socket.destroy()
    await waitFor(
      'the metrics, once a place is free',
      async () => (await g.metric('gateway_http_connections_refused_total', { cap: 'process' }).catch(() => 0)) >= 1,
    )
    expect(await g.metric('gateway_http_connections_refused_total', { cap: 'client' })).toBe(0)
  })

  it('counts a proxy TRUST_PROXY believes only in the total: its clients are told apart by the app', async () => {
    const g = (gateway = await serveGuarded({ CONNECTIONS_PER_CLIENT: '2', TRUST_PROXY: '127.0.0.1' }))
    const proxied = [await g.connect(), await g.connect(), await g.connect()]
    for (const c of proxied) expect(await healthz(c.socket)).toBe('HTTP/1.1 200 OK')
    await g.connect('127.0.0.2')
    await g.connect('127.0.0.2')
    const refused = await g.connect('127.0.0.2')
    expect(parseRaw(await refused.answer).status).toBe(
      'HTTP/1.1 503 too many connections from this client, retry in 1 s',
    )
  })

  it("counts a connection only in the total once it is a peer node's (cluster mode), and frees its place once", async () => {
    const g = (gateway = await serveGuarded({ CONNECTIONS_PER_CLIENT: '2' }))
    const accepted: import('node:net').Socket[] = []
    g.server.on('connection', socket => accepted.push(socket))
    const peer = await g.connect()
    const other = await g.connect()
    await waitFor('both accepted', () => accepted.length === 2)
    g.connections.countOnlyInTotal(accepted[0]!)
    const third = await g.connect()
    expect(await healthz(third.socket)).toBe('HTTP/1.1 200 OK')
    const refused = await g.connect()
    expect(parseRaw(await refused.answer).status).toBe(
      'HTTP/1.1 503 too many connections from this client, retry in 1 s',
    )
    // the peer's connection closing frees no place of the address (it held none)...
    peer.socket.destroy()
    await waitFor('the peer connection closed', () => g.connections.open === 2)
    expect(parseRaw(await (await g.connect()).answer).status).toMatch(/^HTTP\/1.1 503/)
    // ...a counted one does
    other.socket.destroy()
    await waitFor('the other connection closed', () => g.connections.open === 1)
    expect(await healthz((await g.connect()).socket)).toBe('HTTP/1.1 200 OK')
  })
})

describe('cluster mode', () => {
  it("counts a connection only in the total once it carried a peer node's request", async () => {
    // a front that takes every request with a `peer` header for a peer node's, as cluster/front.ts does once its
    // signature checks out
    const front: RequestHandler = (req, _res, next) => {
      if (req.headers.peer) setForwardedClient(req, '192.0.2.1')
      next()
    }
    const gauges = { leasesHeld: () => 0, nodesLive: () => 1 }
    const g = (gateway = await serveGuarded(
      { CONNECTIONS_PER_CLIENT: '1' },
      { front, creationRate: undefined, pairingCodeBudget: { take: () => undefined }, gauges },
    ))
    const peer = await g.connect()
    const first = new Promise<string>(resolve =>
      peer.socket.once('data', chunk => resolve(String(chunk).split('\r\n')[0]!)),
    )
    peer.socket.write('GET /healthz HTTP/1.1\r\nhost: x\r\npeer: 1\r\n\r\n')
    expect(await first).toBe('HTTP/1.1 200 OK')
    // the address's one place is free again: a client from it is served beside the peer's connection
    expect(await healthz((await g.connect()).socket)).toBe('HTTP/1.1 200 OK')
  })
})

describe('trustsPeer', () => {
  it('believes the TCP peer as express believes the nearest hop', () => {
    expect(trustsPeer(false)('127.0.0.1')).toBe(false)
    expect(trustsPeer(true)('192.0.2.1')).toBe(true)
    expect(trustsPeer(0)('127.0.0.1')).toBe(false)
    expect(trustsPeer(1)('192.0.2.1')).toBe(true)
    const list = trustsPeer('loopback, 10.0.0.0/8')
    expect([list('127.0.0.1'), list('::1'), list('10.1.2.3'), list('192.0.2.1')]).toEqual([true, true, true, false])
  })
})
