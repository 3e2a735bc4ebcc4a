/**
 * @module security/bearer-token
 * Optional protection of `POST /session` (CREATE_SESSION_TOKEN) and `GET /metrics` (METRICS_TOKEN): without a token
 * anyone who reaches the port can create sessions (as the spec has it) or scrape; with it, only callers sending
 * `authorization: Bearer <token>`. The API's other endpoints keep authenticating with their own `id` + `session-id`. Both sides are hashed to 32 bytes first, so the comparison is
 * constant-time whatever the presented length, and neither the token nor the header is ever logged.
 */
import { hash, timingSafeEqual } from 'node:crypto'
import type { RequestHandler, Response } from 'express'
import { GatewayError } from '../protocol/errors.js'

const digest = (text: string): Buffer => hash('sha256', text, 'buffer')

/** `Bearer <token>` (scheme case-insensitive, RFC 6750) → the token, else undefined. */
function presentedToken(header: string | undefined): string | undefined {
  const match = /^Bearer +(\S+) *$/i.exec(header ?? '')
  return match?.[1]
}

/** Whether an `authorization` header carries `token` (constant time); always false without a token. */
export function bearerMatcher(token: string | undefined): (authorization: string | undefined) => boolean {
  if (!token) return () => false
  const expected = digest(token)
  return authorization => {
    const given = presentedToken(authorization)
    return given !== undefined && timingSafeEqual(digest(given), expected)
  }
}

/** The 401 of a missing or wrong token, with its `WWW-Authenticate` challenge. */
export function unauthorized(res: Response): GatewayError {
  res.setHeader('WWW-Authenticate', 'Bearer')
  return new GatewayError('UNAUTHORIZED')
}

/** Middleware refusing requests without the right bearer token: 401 `missing or wrong bearer token`. No token
 * configured → lets everything through. */
export function requireBearerToken(token: string | undefined): RequestHandler {
  if (!token) return (_req, _res, next) => next()
  const matches = bearerMatcher(token)
  return (req, res, next) => {
    if (matches(req.headers.authorization)) return next()
    next(unauthorized(res))
  }
}
