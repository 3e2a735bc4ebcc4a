/**
 * @module http/client-errors
 * Requests node's HTTP parser refuses before express sees them (headers over node's 16 KB limit, a broken request
 * line, bytes that are not HTTP) get node's bare `400 Bad Request` / `431` with no body. This answers them in the
 * spec's error shape too, so every response of the gateway is `{ statusCode, message }`. So are the two kinds of
 * request node hands aside instead of to the app: CONNECT (400, its target is not a path: http/server.ts) and an
 * `Expect` other than 100-continue (417, where node would answer with no body).
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import { ERRORS, type ErrorCode } from '../protocol/errors.js'
import type { ErrorEntry } from '../protocol/error-table.js'

function codeOf(err: NodeJS.ErrnoException): ErrorCode {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return 'HEADERS_TOO_LARGE'
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return 'REQUEST_TIMEOUT'
    default:
      return 'MALFORMED_REQUEST'
  }
}

/** An error answered on a response before the app sees its request, in the spec's shape. */
export function answerBeforeApp(res: ServerResponse, code: ErrorCode): void {
  const { status: statusCode, message } = ERRORS[code]
  const body = JSON.stringify({ statusCode, message })
  res.writeHead(statusCode, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  })
  res.end(body)
}

/** Writes a whole error response on a raw socket (with `Retry-After` when its code has a fixed one) and closes it. */
export function answerRaw(socket: Duplex, code: ErrorCode): void {
  if (!socket.writable) {
    socket.destroy()
    return
  }
  const entry: ErrorEntry = ERRORS[code]
  const { status: statusCode, message } = entry
  const body = JSON.stringify({ statusCode, message })
  const retryAfter = entry.retryAfterSeconds === undefined ? '' : `retry-after: ${entry.retryAfterSeconds}\r\n`
  socket.end(
    `HTTP/1.1 ${statusCode} ${message}\r\ncontent-type: application/json; charset=utf-8\r\n${retryAfter}` +
      `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  )
}

export function answerClientErrors(server: Server): void {
  // A request whose body node's parser gives up on (a `transfer-encoding` it does not know, bytes after it) may have
  // been answered already by the app: a second answer on the same connection would be garbage to the client.
  const current = new WeakMap<object, IncomingMessage>()
  server.on('request', (req: IncomingMessage) => current.set(req.socket, req))
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    current.set(req.socket, req)
    answerBeforeApp(res, 'EXPECTATION_FAILED')
  })
  // CONNECT (authority form) never reaches the listener: node hands it here, and would otherwise drop it
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => answerRaw(socket, 'TARGET_NOT_PATH'))
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    // ECONNRESET and the like: the client is gone, nobody to answer.
    if (err.code === 'ECONNRESET' || !socket.writable || current.get(socket)?.complete === false) {
      socket.destroy()
      return
    }
    answerRaw(socket, codeOf(err))
  })
}
