/**
 * @module http/limits/creation-gate
 * Who may create a session, and how often: POST /session needs no credentials (the spec has it open) and costs the
 * server a platform connection and an actor, so:
 *   - without CREATE_SESSION_TOKEN, each client (`client-key.ts`: an address, an IPv6 /64; behind a proxy,
 *     TRUST_PROXY) gets SESSION_CREATE_PER_MINUTE a minute (429 `too many requests` with Retry-After);
 *   - with it, a caller presenting the token is the operator's own (its backend creating sessions for customers,
 *     often from one address): no per-client limit applies to it, only the global ones
 *     (actors/main/session-creation.ts).
 *     A caller without the right token gets 401, and its attempts count against that same per-client budget, so
 *     guessing the token is as slow as creating sessions without one.
 * The buckets are this process's (`TokenBuckets`) or, in cluster mode, shared by every node (cluster/limits.ts).
 */
import type { Request, Response } from 'express'
import { GatewayError, retryAfterFromMs } from '../../protocol/errors.js'
import type { CreationClient } from '../../actors/main/session-creation.js'
import { requestClientKey } from '../client-key.js'
import { TokenBuckets } from './token-bucket.js'
import { bearerMatcher, unauthorized } from '../../security/bearer-token.js'

/** Per-client buckets of POST /session: 0 when `key` may go on, else the milliseconds until it may. */
export interface CreationRate {
  take(key: string): number | Promise<number>
}

/** This process's buckets of SESSION_CREATE_PER_MINUTE; undefined when it is 0 (no limit). */
export function localCreationRate(perMinute: number): CreationRate | undefined {
  return perMinute > 0 ? new TokenBuckets({ perSecond: perMinute / 60, burst: perMinute }) : undefined
}

/**
 * Lets a POST /session through, resolving with who the caller is for the creation limits; rejects with 429 (its
 * client over the rate) or 401 (a token is set and the caller did not present it).
 */
export type CreationGate = (req: Request, res: Response) => Promise<CreationClient>

export function creationGate(token: string | undefined, rate: CreationRate | undefined): CreationGate {
  const holdsToken = bearerMatcher(token)
  return async (req, res) => {
    const key = requestClientKey(req)
    if (holdsToken(req.headers.authorization)) return { key, trusted: true }
    const waitMs = rate ? await rate.take(key) : 0
    if (waitMs > 0) throw new GatewayError('TOO_MANY_REQUESTS', { retryAfterSeconds: retryAfterFromMs(waitMs) })
    if (token !== undefined) throw unauthorized(res)
    return { key, trusted: false }
  }
}
