/**
 * @module http/limits/session-rate
 * Per-session rate limits on the main thread, one token bucket per session id, checked right after the
 * authentication (http/session-route.ts), so a refused request costs neither a body parse nor a thread hop. Over the rate: 429 with `Retry-After: N`
 * and a message naming N. Each family of endpoints has its own buckets, shared by the endpoints of the family and
 * made once per app (`createApp` hands every route the same deps object):
 *   - sends: POST /message, /status, /typing (SEND_RATE_PER_SECOND, SEND_BURST): each puts a stanza on the link;
 *   - reads: GET /group, /group/member, /group/:groupId, /channel, /channel/message (READ_RATE_PER_SECOND,
 *     READ_BURST): each is a platform query; GET, PUT and DELETE /session/proxy share them (a thread hop each, a
 *     store write and a DNS look-up for a change);
 *   - resets: POST /session/reset, at most one per RESET_INTERVAL_MS: each opens a new platform connection;
 *   - deletes: DELETE /session, one a second: a repeat can only find the session gone;
 *   - pairing codes: POST /session/pairing-code, at most one per PAIRING_CODE_INTERVAL_MS: each is a platform round
 *     trip and a notification on the phone whose number the client gave (which may not be the client's).
 * GET /session has no limit: it is answered from the main thread's cache and clients poll it.
 */
import { GatewayError, retryAfterFromMs } from '../../protocol/errors.js'
import type { AppDeps } from '../deps.js'
import { TokenBuckets } from './token-bucket.js'

export interface SessionRateOptions {
  /** Tokens per second; 0 or less turns the limit off. */
  perSecond: number
  burst: number
  /** The 429's code; its message names the wait. */
  code: RateCode
  now?: () => number
}

/** The codes of the families' 429s. */
type RateCode = 'SEND_RATE' | 'READ_RATE' | 'RESET_RATE' | 'DELETE_RATE' | 'PAIRING_CODE_RATE'

/** Takes one token of session `id`'s bucket; throws the family's 429, naming the wait, when there is none. */
export type SessionRate = (id: string) => void

const unlimited: SessionRate = () => {}

/** Builds a limiter with its own buckets. */
function sessionRateLimit({ perSecond, burst, code, now }: SessionRateOptions): SessionRate {
  if (perSecond <= 0) return unlimited
  const buckets = new TokenBuckets({ perSecond, burst: Math.max(1, burst), ...(now ? { now } : {}) })
  return id => {
    const waitMs = buckets.take(id)
    if (waitMs > 0) throw new GatewayError(code, { retryAfterSeconds: retryAfterFromMs(waitMs) })
  }
}

export type RateFamily = 'send' | 'read' | 'reset' | 'delete' | 'pairingCode'

function limiterFor(family: RateFamily, settings: AppDeps['settings']): SessionRate {
  switch (family) {
    case 'send':
      return sessionRateLimit({
        perSecond: settings.SEND_RATE_PER_SECOND,
        burst: settings.SEND_BURST,
        code: 'SEND_RATE',
      })
    case 'read':
      return sessionRateLimit({
        perSecond: settings.READ_RATE_PER_SECOND,
        burst: settings.READ_BURST,
        code: 'READ_RATE',
      })
    case 'reset':
      return sessionRateLimit({
        perSecond: settings.RESET_INTERVAL_MS > 0 ? 1000 / settings.RESET_INTERVAL_MS : 0,
        burst: 1,
        code: 'RESET_RATE',
      })
    case 'delete':
      return sessionRateLimit({ perSecond: 1, burst: 1, code: 'DELETE_RATE' })
    case 'pairingCode':
      return sessionRateLimit({
        perSecond: settings.PAIRING_CODE_INTERVAL_MS > 0 ? 1000 / settings.PAIRING_CODE_INTERVAL_MS : 0,
        burst: 1,
        code: 'PAIRING_CODE_RATE',
      })
  }
}

const perApp = new WeakMap<AppDeps, Map<RateFamily, SessionRate>>()

/** The limiter of one family in one app: the endpoints of a family share its buckets. */
export function sessionRateOf(deps: AppDeps, family: RateFamily): SessionRate {
  let limiters = perApp.get(deps)
  if (limiters === undefined) perApp.set(deps, (limiters = new Map()))
  let limiter = limiters.get(family)
  if (limiter === undefined) limiters.set(family, (limiter = limiterFor(family, deps.settings)))
  return limiter
}
