/**
 * @module http/limits/send-rate
 * Per-session send rate for POST /message, /status and /typing: one token bucket per session id on the main
 * thread (SEND_RATE_PER_SECOND, SEND_BURST), shared by the three endpoints since each puts a stanza on the
 * session's connection. Over the rate: 429 `too many messages for this session, retry in N s` with `Retry-After: N`.
 * Mounted right after the header guard, so a refused request costs neither a body parse nor a thread hop.
 */
import type { RequestHandler } from 'express'
import type { Config } from '../../config.js'
import type { AppDeps } from '../routes/deps.js'
import { GatewayError } from '../../protocol/errors.js'
import { authOf } from '../header-guard.js'
import { retryAfterSeconds, TokenBuckets } from './token-bucket.js'

export const sendRateMessage = (seconds: number): string =>
  `too many messages for this session, retry in ${seconds} s`

/** Builds a limiter with its own buckets. */
export function sendRateLimit(config: Pick<Config, 'SEND_RATE_PER_SECOND' | 'SEND_BURST'>,
  now?: () => number): RequestHandler {
  if (config.SEND_RATE_PER_SECOND <= 0) return (_req, _res, next) => next()
  const buckets = new TokenBuckets({
    perSecond: config.SEND_RATE_PER_SECOND, burst: Math.max(1, config.SEND_BURST), ...(now ? { now } : {}),
  })
  return (_req, res, next) => {
    const waitMs = buckets.take(authOf(res).id)
    if (waitMs === 0) return next()
    const seconds = retryAfterSeconds(waitMs)
    res.setHeader('Retry-After', String(seconds))
    next(new GatewayError('TOO_MANY_REQUESTS', sendRateMessage(seconds)))
  }
}

const perApp = new WeakMap<AppDeps, RequestHandler>()

/** The limiter of one app: `createApp` hands every route the same deps object, so the send routes share buckets. */
export function sendRateOf(deps: AppDeps): RequestHandler {
  let limiter = perApp.get(deps)
  if (limiter === undefined) perApp.set(deps, limiter = sendRateLimit(deps.config))
  return limiter
}
