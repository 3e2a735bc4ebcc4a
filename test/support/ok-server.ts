/**
 * @module test/support/ok-server
 * The gateway's HTTP server (src/http/server.ts) around an app that answers `{"ok":true}` to anything, on a free
 * loopback port, for the tests of what the server does before the app; `reached` lists the URLs the app saw.
 * Call `okServer()` at a test file's top level: it registers its own beforeAll and afterAll.
 */
import type { Server } from 'node:http'
import { afterAll, beforeAll } from 'vitest'
import { createHttpServer } from '../../src/http/server.js'
import { onLoopback, type OnLoopback } from './loopback-server.js'

export function okServer(): { port(): number; reached: string[] } {
  let served: OnLoopback<Server>
  const reached: string[] = []
  beforeAll(async () => {
    served = await onLoopback(
      createHttpServer((req, res) => {
        reached.push(req.url ?? '')
        res.setHeader('content-type', 'application/json')
        res.end('{"ok":true}')
      }),
    )
  })
  afterAll(() => served.close())
  return { port: () => served.port, reached }
}
