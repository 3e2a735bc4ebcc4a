/**
 * Property tests over every endpoint of `createApp` with the fake system, through a real listening socket: random
 * auth headers (valid, empty, unicode, huge, repeated), extra headers, content types and encodings, and bodies from
 * random bytes and JSON to field-aware objects with wrong types and unicode. Every response must come back (no hang),
 * with a status allowed for that endpoint, as JSON, errors exactly `{ statusCode, message }` with statusCode equal to
 * the HTTP status, no stack trace, and no request may reach the error mapper as an unexpected failure.
 */
import type { Server } from 'node:http'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CHANNEL, GROUP, makeApp, type TestApp } from '../../../support/fakes/fake-system.js'
import { createHttpServer } from '../../../../src/http/server.js'
import { endpoints, requestFor, type GenOptions } from '../../../support/property/arbitraries.js'
import { exchange, expectWellFormed, rawRequest } from '../../../support/property/raw-http.js'
import { onLoopback, type OnLoopback } from '../../../support/loopback-server.js'

let t: TestApp
let served: OnLoopback<Server>
let port: number

beforeAll(async () => {
  // No send, read or reset rate (test/unit/http/limits/session-rate.test.ts covers them; here they would turn most requests into 429s, which
  // stop before the parsing under test); a creation limit the runs hit.
  t = makeApp({
    SEND_RATE_PER_SECOND: '0',
    READ_RATE_PER_SECOND: '0',
    RESET_INTERVAL_MS: '0',
    SESSION_CREATE_PER_MINUTE: '50',
  })
  served = await onLoopback(createHttpServer(t.app)) // the production server's settings: client errors, timeouts
  port = served.port
})
afterAll(() => served.close())

const options = (): GenOptions => ({
  auth: t.auth,
  media: ['https://media.test/a.jpg', 'http://media.test/a.mp4'],
  groupId: GROUP.id,
  channelId: CHANNEL.id,
})

const unexpected = () => t.logs.filter(l => l.msg === 'unexpected error in request')

describe('every endpoint, random requests', () => {
  for (const name of endpoints({ auth: { id: '', 'session-id': '' }, media: [''], groupId: '', channelId: '' }).map(
    e => e.name,
  )) {
    it(name, async () => {
      const endpoint = endpoints(options()).find(e => e.name === name)!
      await fc.assert(
        fc.asyncProperty(requestFor(endpoint, options()), fc.boolean(), async (req, connected) => {
          // DELETE may have removed the session, and half the runs see it disconnected.
          t.system.add(t.auth.id, t.auth['session-id'], connected ? {} : { isConnected: false, state: 'reconnecting' })
          const res = await rawRequest(port, req)
          expectWellFormed(res, endpoint.allowed, `${req.method} ${req.path}`)
          expect(unexpected()).toEqual([])
        }),
        { numRuns: 150 },
      )
    }, 120_000)
  }
})

describe('requests the HTTP parser refuses still get the error shape', () => {
  const cases: [string, Buffer, number][] = [
    ['headers over 16 KB', Buffer.from(`GET /session HTTP/1.1\r\nhost: x\r\nid: ${'a'.repeat(20_000)}\r\n\r\n`), 431],
    ['not HTTP at all', Buffer.from('\u0000\u0001garbage\r\n\r\n'), 400],
    ['a broken request line', Buffer.from('GET  HTTP/9\r\n\r\n'), 400],
    ['a control character in a header', Buffer.from('GET /session HTTP/1.1\r\nhost: x\r\nid: a\u0001b\r\n\r\n'), 400],
    ['only blank lines, then silence (answered when the headers timeout ends)', Buffer.from('\n\r\n\r\n'), 408],
  ]
  it.each(cases)('%s', async (what, bytes, status) => {
    const res = await exchange(port, bytes, what)
    expectWellFormed(res, [status], what)
  })

  it('random bytes never hang the server and always get the shape', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 1, maxLength: 300 }), async bytes => {
        const res = await exchange(port, Buffer.concat([Buffer.from(bytes), Buffer.from('\r\n\r\n')]), 'random bytes')
        // 408 when the bytes were only blank lines: HTTP lets a request be preceded by empty lines, so the server
        // waits for a request line until its headers timeout (src/http/server.ts)
        expectWellFormed(res, [400, 404, 405, 408, 431, 505], 'random bytes')
      }),
      { numRuns: 100 },
    )
  }, 120_000)
})
