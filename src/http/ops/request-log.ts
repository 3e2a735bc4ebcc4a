/**
 * @module http/ops/request-log
 * One log line per request: request id, method, route pattern, path, status, duration, and the session's `id`
 * header (cut to 64 characters). The `session-id` header is a secret and never logged: the line is built from
 * chosen fields only, and the root logger redacts the header too (`src/logger.ts`). The path is logged without its
 * query string.
 *
 * Levels: 5xx at warn (but /readyz's 503, its answer while starting or stopping), other requests at info, and at
 * debug the pages and their assets (page-paths.ts) and the ones that are polled: probes and scrapes, a
 * successful `GET /session` (every client polls it every few seconds for its QR; 1,000 clients would write hundreds
 * of identical lines a second), and any 304 (a wait of GET /session or GET /session/qr that ended unchanged). Their
 * failures (404, 400, 429) still log at info.
 *
 * Why not pino-http: it builds a child logger per request and passes every line through the redaction paths, which
 * made logging most of the gateway's own CPU on `GET /session` (bench/get-session.ts, BENCHMARKS.md); a line at a
 * disabled level costs nothing here.
 */
import type { Request, Response } from 'express'
import type { Level, Logger } from 'pino'
import { READYZ_PATH } from './paths.js'
import { isApiPath } from './page-paths.js'

const pathOf = (req: Request): string => {
  const url = req.originalUrl
  const q = url.indexOf('?')
  return q === -1 ? url : url.slice(0, q)
}

/** Longest `id` header logged as is. A real id is 24 characters; node lets a header run to 16 KB, and every request
 * with an invented one would otherwise write that much into the log. */
const LOGGED_SESSION_MAX_CHARS = 64

const loggedSession = (id: string): string =>
  id.length > LOGGED_SESSION_MAX_CHARS ? `${id.slice(0, LOGGED_SESSION_MAX_CHARS)}…` : id

/** `route` is the request's route pattern (route-pattern.ts). */
function requestLevel(req: Request, res: Response, route: string): Level {
  // `503 starting` / `stopping` is how /readyz says "not yet" to the probe that polls it through every restart
  if (req.path === READYZ_PATH) return 'debug'
  if (res.statusCode >= 500) return 'warn'
  if (!isApiPath(req.path)) return 'debug' // probes, scrapes, pages and their assets
  if (req.method === 'GET' && res.statusCode < 400 && route === '/session') return 'debug'
  // a waiting GET /session or GET /session/qr that ended unchanged: polled traffic too
  if (res.statusCode === 304) return 'debug'
  return 'info'
}

/** Writes the line of one request once its response closed (sent or cut off); `started` is its performance.now(),
 * `route` its route pattern. */
export function requestLog(
  logger: Logger,
): (req: Request, res: Response, started: number, reqId: string, route: string) => void {
  return (req, res, started, reqId, route) => {
    const level = requestLevel(req, res, route)
    if (!logger.isLevelEnabled(level)) return
    const session = req.headers.id
    logger[level](
      {
        reqId,
        method: req.method,
        route,
        path: pathOf(req),
        status: res.statusCode,
        durationMs: Math.round((performance.now() - started) * 1000) / 1000,
        ...(res.writableFinished ? {} : { aborted: true }), // the client hung up before the answer was sent
        ...(typeof session === 'string' ? { session: loggedSession(session) } : {}),
      },
      'request',
    )
  }
}
