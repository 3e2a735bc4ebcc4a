/**
 * @module http/ops/request-log
 * One log line per request (pino-http): request id, method, route pattern, url, status, duration, and the
 * session's `id` header. The `session-id` header is a secret and never logged: the line is built from chosen
 * fields only, and the root logger redacts the header too (`src/logger.ts`). Probes and scrapes log at debug.
 */
import type { Request, RequestHandler } from 'express'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Logger } from 'pino'
import { pinoHttp } from 'pino-http'
import { OPS_PATHS } from './paths.js'
import { requestIdOf } from './request-id.js'
import { routePattern } from './route-pattern.js'

function lineOf(req: IncomingMessage, res: ServerResponse, loggable: { responseTime?: number }) {
  const request = req as Request
  const session = request.headers.id
  return {
    method: request.method,
    route: routePattern(request),
    url: request.originalUrl,
    status: res.statusCode,
    durationMs: loggable.responseTime,
    ...(typeof session === 'string' ? { session } : {}),
  }
}

export function requestLog(logger: Logger): RequestHandler {
  return pinoHttp({
    logger,
    genReqId: requestIdOf,
    // Only the request id is bound to req.log/res.log; the finished line carries the chosen fields above.
    quietReqLogger: true,
    quietResLogger: true,
    customSuccessObject: lineOf,
    customErrorObject: (req, res, _err, loggable) => lineOf(req, res, loggable),
    customSuccessMessage: () => 'request',
    customErrorMessage: () => 'request',
    customLogLevel: (req, res) => {
      if (OPS_PATHS.has((req as Request).path)) return 'debug'
      return res.statusCode >= 500 ? 'warn' : 'info'
    },
  }) as unknown as RequestHandler
}
