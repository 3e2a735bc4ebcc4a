/**
 * The HTTP server in either mode, before the app: a request target that is not a path (absolute form naming any
 * host, authority form, asterisk form) is 400 in the spec's shape and the app never sees it, so nothing downstream
 * can build a URL from a host the client named; an `Expect` other than 100-continue is 417 in the same shape (node
 * answers it with no body); and a request node's parser gives up on after the app answered it gets no second,
 * garbled answer on the same connection.
 */
import { expect, it } from 'vitest'
import { okServer } from '../../../support/ok-server.js'
import { exchange, expectWellFormed, rawRequest } from '../../../support/property/raw-http.js'

const { port, reached } = okServer()

it('refuses every target that is not a path before the app sees it', async () => {
  for (const path of ['http://127.0.0.1:9/session', 'https://127.0.0.1:9/message', 'HTTP://x/group', '*']) {
    for (const method of ['GET', 'POST', 'OPTIONS']) {
      const res = await rawRequest(port(), { method, path, headers: [] })
      expect(expectWellFormed(res, [400], `${method} ${path}`)).toEqual({
        statusCode: 400,
        message: 'request target must be a path',
      })
    }
  }
  const connect = await exchange(
    port(),
    Buffer.from('CONNECT 127.0.0.1:9 HTTP/1.1\r\nhost: 127.0.0.1:9\r\n\r\n'),
    'CONNECT',
  )
  expect(expectWellFormed(connect, [400], 'CONNECT')).toEqual({
    statusCode: 400,
    message: 'request target must be a path',
  })
  expect(reached).toEqual([])
  // a path that merely starts like one is the app's to answer
  expect((await rawRequest(port(), { method: 'GET', path: '//127.0.0.1:9/session', headers: [] })).status).toBe(200)
  expect(reached).toEqual(['//127.0.0.1:9/session'])
})

it('answers an unknown Expect with 417 in the error shape', async () => {
  const res = await rawRequest(port(), { method: 'GET', path: '/session', headers: [['expect', 'coffee']] })
  expect(expectWellFormed(res, [417], 'expect')).toEqual({
    statusCode: 417,
    message: 'only "Expect: 100-continue" is supported',
  })
})

it('gives one answer to a request whose body node cannot frame', async () => {
  const res = await exchange(
    port(),
    Buffer.from('GET /x HTTP/1.1\r\nhost: a\r\nconnection: close\r\ntransfer-encoding: gzip-ish\r\n\r\n'),
    'unknown transfer-encoding',
  )
  expect(res.status).toBe(200)
  expect(res.text).toBe('{"ok":true}')
})
