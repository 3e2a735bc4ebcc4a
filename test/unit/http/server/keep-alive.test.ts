/**
 * A client that keeps its connection alive and comes back after a pause must find it open: Node closes an idle
 * kept-alive connection after 5 s, and a client pool or load balancer reusing it just then gets `ECONNRESET` /
 * `socket hang up` for a request the gateway never saw.
 */
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createHttpServer } from '../../../../src/http/server.js'
import { reuseAfterIdle } from '../../../support/keep-alive.js'

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

it('keeps an idle connection open past Node’s 5 s and says for how long', async () => {
  const [first, second] = await reuseAfterIdle(port, '/session', 6_000)
  expect(first).toMatch(/^HTTP\/1\.1 200/)
  // what a client pool reads to size its idle timeout: above the 60 s common load balancers use
  expect(first).toMatch(/\r\nkeep-alive: timeout=65\r\n/i)
  expect(second).toMatch(/^HTTP\/1\.1 200/)
}, 20_000)
