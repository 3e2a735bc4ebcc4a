/**
 * @module http/errors
 * The one place where failures become HTTP responses. A `GatewayError` (or its wire form) answers with its
 * status, its message and, when it has one, its `Retry-After` (protocol/error-table.ts); anything else is a bug:
 * logged with its stack, answered with a bare 500 `internal server error`. Every error body is exactly
 * `{ statusCode, message }` (SPEC: Errors).
 */
import type { ErrorRequestHandler, RequestHandler } from 'express'
import type { Logger } from 'pino'
import { fromWire, GatewayError, isWireError } from '../protocol/errors.js'
import { MOVING_HEADER } from './api-paths.js'

export interface ErrorBody {
  statusCode: number
  message: string
}

/** What the client is told of a failure: a GatewayError as it is; anything else is a bug (undefined here). */
function asGatewayError(err: unknown): GatewayError | undefined {
  if (err instanceof GatewayError) return err
  if (isWireError(err)) return fromWire(err)
  // The router could not percent-decode a path parameter (`/group/%E0%A4%A`): the client's fault, not ours.
  if (err instanceof URIError) return new GatewayError('PATH_NOT_DECODABLE')
  return undefined
}

/** The body of an error answer. */
export const errorBody = (error: GatewayError): ErrorBody => ({ statusCode: error.status, message: error.message })

/** Express error middleware: the last `app.use` of the app. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const where = { method: req.method, path: req.path }
    const known = asGatewayError(err)
    const error = known ?? new GatewayError('INTERNAL')
    if (known === undefined) {
      logger.error({ err, ...where }, 'unexpected error in request')
    } else {
      const cause = error.cause === undefined ? {} : { cause: String(error.cause) }
      logger[error.isWarning ? 'warn' : 'debug'](
        { code: error.code, reason: error.message, status: error.status, ...cause, ...where },
        'request failed',
      )
    }
    if (res.headersSent) {
      // Too late for a clean error body; cut the response so the client sees it failed.
      res.destroy()
      return
    }
    if (error.code === 'SESSION_MOVING') res.setHeader(MOVING_HEADER, '1')
    const retryAfter = error.retryAfterSeconds
    if (retryAfter !== undefined) res.setHeader('Retry-After', String(retryAfter))
    res.status(error.status).json(errorBody(error))
  }
}

/** Unknown paths, unsupported methods, and any request to the retired `/webhook` feature (SPEC: Events). */
export const notFoundHandler: RequestHandler = (_req, _res, next) => {
  next(new GatewayError('NOT_FOUND'))
}
