/**
 * @module http/rate-limit
 * A per-client token bucket for POST /session, the one endpoint that needs no credentials and costs the server a
 * platform socket and a worker-thread actor. Over the limit: 429 `too many requests` with `Retry-After`.
 * Buckets are keyed by the client address (behind a proxy, set express' `trust proxy` so it is the real client).
 */
import type { RequestHandler } from 'express'
import { GatewayError } from '../protocol/errors.js'

export interface RateLimitOptions {
  /** Requests allowed per minute and per client; 0 turns the limit off. */
  perMinute: number
  now?: () => number
}

interface Bucket { tokens: number; at: number }

export function rateLimit({ perMinute, now = Date.now }: RateLimitOptions): RequestHandler {
  if (perMinute <= 0) return (_req, _res, next) => next()
  const buckets = new Map<string, Bucket>()
  const refillPerMs = perMinute / 60_000
  return (req, res, next) => {
    const t = now()
    // Drop full buckets now and then so one-off clients do not pile up.
    if (buckets.size > 10_000) for (const [k, b] of buckets) if (b.tokens + (t - b.at) * refillPerMs >= perMinute) buckets.delete(k)
    const key = req.ip ?? 'unknown'
    const b = buckets.get(key) ?? { tokens: perMinute, at: t }
    b.tokens = Math.min(perMinute, b.tokens + (t - b.at) * refillPerMs)
    b.at = t
    buckets.set(key, b)
    if (b.tokens < 1) {
      res.setHeader('Retry-After', String(Math.ceil((1 - b.tokens) / refillPerMs / 1000)))
      next(new GatewayError('TOO_MANY_REQUESTS'))
      return
    }
    b.tokens -= 1
    next()
  }
}
