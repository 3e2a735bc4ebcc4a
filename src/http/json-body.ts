/**
 * @module http/json-body
 * JSON body parsing for the endpoints that take a body, read after the authentication so an unauthenticated
 * caller never gets its body read. 415 when a body is sent that is not `application/json`, 413 above
 * BODY_LIMIT_BYTES, 400 `body is not valid JSON` on a parse failure. body-parser's own errors never reach the
 * client: they are turned into `GatewayError`s here.
 */
import { Readable } from 'node:stream'
import express, { type Request, type RequestHandler, type Response } from 'express'
import { GatewayError } from '../protocol/errors.js'

const PRELOADED = Symbol('body read before routing')

/**
 * Cluster mode: the body of `req` was read whole before the request was routed (cluster/front.ts), and the session
 * then turned out to run here. The parser below reads it from this copy, with the same rules as from the socket.
 */
export function setPreloadedBody(req: Request, body: Buffer): void {
  ;(req as unknown as Record<symbol, Buffer>)[PRELOADED] = body
}

/** A stand-in request that streams the preloaded body, for body-parser (which reads `headers` and the stream). */
function replay(req: Request, body: Buffer): Readable & { body?: unknown } {
  return Object.assign(Readable.from([body], { objectMode: false }), {
    headers: req.headers,
    method: req.method,
    url: req.url,
    // on-finished's test of an IncomingMessage: not complete yet, on a readable socket
    complete: false,
    socket: { readable: true },
  })
}

/** body-parser tags its errors with a `type` string. */
function parserError(err: unknown): GatewayError | unknown {
  const type = (err as { type?: unknown } | null)?.type
  const status = (err as { status?: unknown } | null)?.status
  switch (type) {
    case 'entity.too.large':
      return new GatewayError('BODY_TOO_LARGE')
    case 'charset.unsupported':
    case 'encoding.unsupported':
      return new GatewayError('UNSUPPORTED_MEDIA_TYPE')
    default:
      // entity.parse.failed, request.size.invalid, request.aborted...: the body could not be read as JSON.
      if (typeof status === 'number' && status >= 400 && status < 500) return new GatewayError('INVALID_JSON')
      return err
  }
}

/** True when the request carries body bytes (an empty `Content-Length: 0` body counts as none). */
function hasContent(headers: NodeJS.Dict<string | string[]>): boolean {
  if (headers['transfer-encoding'] !== undefined) return true
  const length = Number(headers['content-length'] ?? '0')
  return Number.isNaN(length) || length > 0
}

/** `jsonBody` as one step of a handler (http/session-route.ts): resolves once `req.body` is read, else rejects. */
export function jsonBodyReader(limitBytes: number): (req: Request, res: Response) => Promise<void> {
  const read = jsonBody(limitBytes)
  return (req, res) => new Promise((resolve, reject) => read(req, res, err => (err ? reject(err) : resolve())))
}

export function jsonBody(limitBytes: number): RequestHandler {
  // strict: false so a top-level string or number parses and gets the clearer `body must be a JSON object`.
  const parse = express.json({ limit: limitBytes, strict: false, type: 'application/json' })
  return (req, res, next) => {
    if (hasContent(req.headers) && req.is('application/json') !== 'application/json') {
      next(new GatewayError('UNSUPPORTED_MEDIA_TYPE'))
      return
    }
    const preloaded = (req as unknown as Record<symbol, Buffer | undefined>)[PRELOADED]
    if (preloaded === undefined) {
      parse(req, res, err => next(err === undefined || err === null ? undefined : parserError(err)))
      return
    }
    const stand = replay(req, preloaded)
    parse(stand as unknown as Request, res, err => {
      req.body = stand.body
      next(err === undefined || err === null ? undefined : parserError(err))
    })
  }
}
