/**
 * @module http/errors
 * The one place where failures become HTTP responses. A `GatewayError` (or its wire form) answers with
 * `ERROR_STATUS[code]` and its message; anything else is a bug: logged with its stack, answered with a bare
 * 500 `internal server error`. Every error body is exactly `{ statusCode, message }` (SPEC: Errors).
 */
import type { ErrorRequestHandler, RequestHandler } from 'express'
import type { Logger } from 'pino'
import { ERROR_STATUS, GatewayError, isWireError } from '../protocol/errors.js'
import { ERROR_MESSAGE, OTHER_MESSAGE } from '../protocol/messages.js'

export interface ErrorBody {
  statusCode: number
  message: string
}

/** Codes worth a warning: the gateway or the platform misbehaved. Others (not connected, bad media URL...) are
 * the client's business and logged at debug only. */
const WARN_CODES: ReadonlySet<string> = new Set([
  'WORKER_CRASHED',
  'PLATFORM_TIMEOUT',
  'PLATFORM_REJECTED',
  'INTERNAL',
  'OVERLOADED',
  'STORAGE_UNAVAILABLE',
])

/**
 * Cluster mode: set on a 503 SESSION_MOVING, which a node answers having run nothing of the request (the session is
 * on its way to or from it). A node that forwarded the request asks again where the session is instead of passing
 * the 503 on (cluster/forward.ts); a client may ignore it.
 */
export const MOVING_HEADER = 'x-gateway-moving'

/** How long a client should wait after a 503 before retrying. */
const RETRY_AFTER_SECONDS = '1'

/** Maps any thrown value to the body the client sees. `known` is false for unexpected failures (to be logged). */
function toErrorBody(err: unknown): { body: ErrorBody; known: boolean } {
  if (err instanceof GatewayError || isWireError(err)) {
    const statusCode = ERROR_STATUS[err.code]
    // An INTERNAL error's own message may hold details meant for the log only.
    const message = err.code === 'INTERNAL' ? ERROR_MESSAGE.INTERNAL : err.message
    return { body: { statusCode, message }, known: true }
  }
  // The router could not percent-decode a path parameter (`/group/%E0%A4%A`): the client's fault, not ours.
  if (err instanceof URIError) {
    return { body: { statusCode: 400, message: OTHER_MESSAGE.PATH_NOT_DECODABLE }, known: true }
  }
  return { body: { statusCode: 500, message: ERROR_MESSAGE.INTERNAL }, known: false }
}

/** Express error middleware: the last `app.use` of the app. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const { body, known } = toErrorBody(err)
    const where = { method: req.method, path: req.path }
    if (!known) {
      logger.error({ err, ...where }, 'unexpected error in request')
    } else {
      const code = err instanceof URIError ? 'PATH_NOT_DECODABLE' : (err as { code: string }).code
      const level = WARN_CODES.has(code) ? 'warn' : 'debug'
      logger[level]({ code, reason: body.message, status: body.statusCode, ...where }, 'request failed')
    }
    if (res.headersSent) {
      // Too late for a clean error body; cut the response so the client sees it failed.
      res.destroy()
      return
    }
    if ((err as { code?: unknown }).code === 'SESSION_MOVING') res.setHeader(MOVING_HEADER, '1')
    const retryAfter = err instanceof GatewayError ? err.retryAfterSeconds : undefined
    if (retryAfter !== undefined) res.setHeader('Retry-After', String(retryAfter))
    else if (body.statusCode === 503) res.setHeader('Retry-After', RETRY_AFTER_SECONDS)
    res.status(body.statusCode).json(body)
  }
}

/** Unknown paths, unsupported methods, and any request to the retired `/webhook` feature (SPEC: Events). */
export const notFoundHandler: RequestHandler = (_req, _res, next) => {
  next(new GatewayError('NOT_FOUND'))
}
