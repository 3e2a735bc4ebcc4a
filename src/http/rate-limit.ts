/**
 * @module http/rate-limit
 * A per-client token bucket for POST /session, the one endpoint that needs no credentials and costs the server a
 * platform socket and a worker-thread actor. Over the limit: 429 `too many requests` with `Retry-After`.
 * Buckets are keyed by the client (`client-key.ts`: the address, an IPv6 /64; behind a proxy, TRUST_PROXY).
 */
import type { RequestHandler } from 'express'
import { GatewayError } from '../protocol/errors.js'
import { requestClientKey } from './client-key.js'
import { retryAfterSeconds, TokenBuckets } from './limits/token-bucket.js'

export interface RateLimitOptions {
  /** Requests allowed per minute and per client; 0 turns the limit off. */
  perMinute: number
  now?: () => number
}

export function rateLimit({ perMinute, now }: RateLimitOptions): RequestHandler {
  if (perMinute <= 0) return (_req, _res, next) => next()
  const buckets = new TokenBuckets({ perSecond: perMinute / 60, burst: perMinute, ...(now ? { now } : {}) })
  return (req, res, next) => {
    const waitMs = buckets.take(requestClientKey(req))
    if (waitMs === 0) return next()
    res.setHeader('Retry-After', String(retryAfterSeconds(waitMs)))
    next(new GatewayError('TOO_MANY_REQUESTS'))
  }
}
