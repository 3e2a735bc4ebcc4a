/**
 * A client that keeps its connection alive and comes back after a pause must find it open: Node closes an idle
 * kept-alive connection after 5 s, and a client pool reusing it just then gets `ECONNRESET` / `socket hang up` for a
 * request the gateway never saw (seen with 1,000 sessions pairing: the bench driver's pool, under load, reused
 * sockets later than the server kept them).
 */
import { createConnection, type AddressInfo, type Socket } from 'node:net'
import type { Server } from 'node:http'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createHttpServer } from '../../../src/http/server.js'

let server: Server
let port: number

beforeAll(async () => {
  server = createHttpServer((_req, res) => {
    res.setHeader('content-type', 'application/json')
    res.end('{"ok":true}')
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  port = (server.address() as AddressInfo).port
})
afterAll(async () => {
  server.closeAllConnections()
  await new Promise<void>(resolve => server.close(() => resolve()))
})

/** Writes one request on the socket and resolves with the whole response head and body (a short JSON body). */
function exchange(socket: Socket): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = ''
    const onData = (d: Buffer) => {
      text += d
      if (text.includes('\r\n\r\n') && text.endsWith('}')) done(undefined)
    }
    const onClose = () => done(new Error(`connection closed by the server; received: ${JSON.stringify(text)}`))
    const done = (err: Error | undefined) => {
      socket.off('data', onData)
      socket.off('close', onClose)
      if (err) reject(err)
      else resolve(text)
    }
    socket.on('data', onData)
    socket.on('close', onClose)
    socket.write('GET /session HTTP/1.1\r\nhost: gateway\r\nconnection: keep-alive\r\n\r\n')
  })
}

it('keeps an idle connection open past Node’s 5 s and says for how long', async () => {
  const socket = createConnection(port, '127.0.0.1')
  await new Promise<void>(resolve => socket.once('connect', resolve))
  try {
    const first = await exchange(socket)
    expect(first).toMatch(/^HTTP\/1\.1 200/)
    // what a client pool reads to size its idle timeout: above the 60 s common load balancers use
    expect(first).toMatch(/\r\nkeep-alive: timeout=65\r\n/i)
    await new Promise(resolve => setTimeout(resolve, 6_000))
    expect(socket.destroyed).toBe(false)
    expect(await exchange(socket)).toMatch(/^HTTP\/1\.1 200/)
  } finally {
    socket.destroy()
  }
}, 20_000)
