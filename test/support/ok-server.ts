/**
 * @module test/support/ok-server
 * The gateway's HTTP server (src/http/server.ts) around an app that answers `{"ok":true}` to anything, on a free
 * loopback port, for the tests of what the server does before the app; `reached` lists the URLs the app saw.
 * Call `okServer()` at a test file's top level: it registers its own beforeAll and afterAll.
 */
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll } from 'vitest'
import { createHttpServer } from '../../src/http/server.js'

export function okServer(): { port(): number; reached: string[] } {
  let server: Server
  let port = 0
  const reached: string[] = []
  beforeAll(async () => {
    server = createHttpServer((req, res) => {
      reached.push(req.url ?? '')
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
  return { port: () => port, reached }
}
