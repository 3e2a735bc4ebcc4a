/**
 * @module platform/baileys/close-reason
 * Reduces Baileys' `lastDisconnect.error` (a Boom with `output.statusCode`) to the actor's CloseReason
 * (BAILEYS-MAPPING §1.3–1.5). 408 is both "timed out" and "connection lost" in Baileys, so QR expiry is recognised
 * by its message while the account was never paired. 405 is the platform refusing the web client's version, 402/403
 * the account itself; a failure at the session's proxy is told apart by the error Baileys wraps.
 */
import { boomStatusCode } from './boom.js'
import type { CloseReason } from '../link.js'

export const QR_REFS_ENDED_MESSAGE = 'QR refs attempts ended'

export interface CloseFacts {
  /** `lastDisconnect.error.output.statusCode`, if any. */
  statusCode: number | undefined
  /** `lastDisconnect.error.message`, if any. */
  message: string | undefined
  /** The account has been paired (creds.me set or pair-success seen). */
  paired: boolean
  /** close() or logout() was called on the link. */
  closedByUs: boolean
  /** The connection failed at the session's proxy (a `ProxyError`, proxy/proxy-agent.ts). */
  proxyFailed?: boolean
}

export function closeReasonOf(facts: CloseFacts): CloseReason {
  if (facts.closedByUs) return 'closed-by-us'
  if (facts.proxyFailed) return 'proxy-refused'
  switch (facts.statusCode) {
    case 515:
      return 'restart-required'
    case 401:
    case 419:
      return 'logged-out'
    case 402:
    case 403:
      return 'account-refused'
    case 405:
      return 'client-version-refused'
    case 440:
      return 'replaced'
    case 408:
      if (!facts.paired && facts.message === QR_REFS_ENDED_MESSAGE) return 'qr-expired'
      return 'connection-lost'
    default:
      return 'connection-lost'
  }
}

/** Reads the facts out of whatever Baileys put in `lastDisconnect.error`. */
export function disconnectFacts(error: unknown): Pick<CloseFacts, 'statusCode' | 'message' | 'proxyFailed'> {
  return {
    statusCode: boomStatusCode(error),
    message: (error as { message?: string } | undefined)?.message,
    proxyFailed: isProxyError(error),
  }
}

/** A ProxyError itself, or Baileys' Boom around one (a WebSocket error keeps the original as `data`). */
export function isProxyError(error: unknown): boolean {
  const named = (e: unknown) => e instanceof Error && e.name === 'ProxyError'
  return named(error) || named((error as { data?: unknown } | undefined)?.data)
}
