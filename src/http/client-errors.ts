/**
 * @module http/client-errors
 * Requests node's HTTP parser refuses before express sees them (headers over node's 16 KB limit, a broken request
 * line, bytes that are not HTTP) get node's bare `400 Bad Request` / `431` with no body. This answers them in the
 * spec's error shape too, so every response of the gateway is `{ statusCode, message }`.
 */
import type { Server } from 'node:http'
import type { Duplex } from 'node:stream'
import { OTHER_MESSAGE } from '../protocol/messages.js'

function statusOf(err: NodeJS.ErrnoException): { statusCode: number; message: string } {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return { statusCode: 431, message: OTHER_MESSAGE.HEADERS_TOO_LARGE }
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { statusCode: 408, message: OTHER_MESSAGE.REQUEST_TIMEOUT }
    default:
      return { statusCode: 400, message: OTHER_MESSAGE.MALFORMED_REQUEST }
  }
}

/** Writes a whole error response on a raw socket and closes it. */
export function answerRaw(socket: Duplex, statusCode: number, message: string): void {
  if (!socket.writable) {
    socket.destroy()
    return
  }
  const body = JSON.stringify({ statusCode, message })
  socket.end(
    `HTTP/1.1 ${statusCode} ${message}\r\ncontent-type: application/json; charset=utf-8\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  )
}

export function answerClientErrors(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    // ECONNRESET and the like: the client is gone, nobody to answer.
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy()
      return
    }
    const error = statusOf(err)
    answerRaw(socket, error.statusCode, error.message)
  })
}
