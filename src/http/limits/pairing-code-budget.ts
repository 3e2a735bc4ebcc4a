/**
 * @module http/limits/pairing-code-budget
 * Pairing codes per phone number and per client, on top of the per-session interval (session-rate.ts). Each code
 * is a notification on the phone whose number the client gave, which need not be the client's: without a bound per
 * number, one client with a few unpaired sessions (or a few clients) could ring a stranger's phone again and again
 * from our accounts' addresses. So:
 *   - PAIRING_CODES_PER_PHONE_PER_HOUR codes per number, whoever asks (a token bucket of that many, refilled over the
 *     hour);
 *   - PAIRING_CODES_PER_CLIENT_PER_HOUR codes per client (`client-key.ts`: an address, an IPv6 /64), whatever the
 *     numbers, so one client cannot spread the same flood over many numbers.
 * A request takes a code of both budgets or of neither (a request the number's budget refuses costs the client
 * nothing), the client's checked first. Only a request that would reach the platform counts: the route takes it
 * after validation, and not for a paired session (its actor answers 409 and asks the platform nothing).
 *
 * The budgets are this process's (`localPairingCodeBudget`) or, in cluster mode, shared by every node in Redis
 * (cluster/limits.ts, with numbers and addresses stored only as keyed hashes): the core names the interface, cluster
 * mode plugs its implementation in through `ClusterHttp`.
 *
 * @example
 * const spend = pairingCodeGate(localPairingCodeBudget(settings))
 * await spend('203.0.113.7', '15550000001') // or throws 429 PAIRING_CODE_PHONE_RATE / PAIRING_CODE_CLIENT_RATE
 */
import { GatewayError, retryAfterFromMs } from '../../protocol/errors.js'
import type { HttpSettings } from '../settings.js'
import { TokenBuckets } from './token-bucket.js'

/** Which budget refused a code, and the milliseconds until it has one again. */
export interface PairingCodeRefusal {
  by: 'client' | 'phone'
  waitMs: number
}

/** Codes per client and per number: one of each taken (undefined), or nothing taken and why. */
export interface PairingCodeBudget {
  take(client: string, phone: string): PairingCodeRefusal | undefined | Promise<PairingCodeRefusal | undefined>
}

export type PairingCodeQuotas = Pick<
  HttpSettings,
  'PAIRING_CODES_PER_PHONE_PER_HOUR' | 'PAIRING_CODES_PER_CLIENT_PER_HOUR'
>

const HOUR_S = 3600

/** Buckets of `perHour` refilled over the hour; undefined for 0 (no limit). */
const hourly = (perHour: number, now?: () => number): TokenBuckets | undefined =>
  perHour > 0 ? new TokenBuckets({ perSecond: perHour / HOUR_S, burst: perHour, ...(now ? { now } : {}) }) : undefined

/** This process's budgets. */
export function localPairingCodeBudget(quotas: PairingCodeQuotas, now?: () => number): PairingCodeBudget {
  const clients = hourly(quotas.PAIRING_CODES_PER_CLIENT_PER_HOUR, now)
  const phones = hourly(quotas.PAIRING_CODES_PER_PHONE_PER_HOUR, now)
  return {
    take(client, phone) {
      const clientWait = clients?.wait(client) ?? 0
      if (clientWait > 0) return { by: 'client', waitMs: clientWait }
      const phoneWait = phones?.wait(phone) ?? 0
      if (phoneWait > 0) return { by: 'phone', waitMs: phoneWait }
      clients?.take(client)
      phones?.take(phone)
      return undefined
    },
  }
}

/** Takes a code of `client`'s and `phone`'s budgets, or throws the 429 of the one that refused. */
export function pairingCodeGate(budget: PairingCodeBudget): (client: string, phone: string) => Promise<void> {
  return async (client, phone) => {
    const refused = await budget.take(client, phone)
    if (refused === undefined) return
    const code = refused.by === 'client' ? 'PAIRING_CODE_CLIENT_RATE' : 'PAIRING_CODE_PHONE_RATE'
    throw new GatewayError(code, { retryAfterSeconds: retryAfterFromMs(refused.waitMs) })
  }
}
