/**
 * @module actors/session/not-connected
 * Why a session is not connected, as GET /session shows it (`reason`, `reasonMessage`): a short code a program can
 * act on and one sentence for a person, from the close that took the link down. Without it a session whose client
 * version the platform refuses, or whose proxy fails, just never shows a QR.
 */
import type { CloseReason } from '../../platform/link.js'
import type { NotConnected } from '../../protocol/snapshot.js'

/** The web client version the refused link named, and whether PLATFORM_CLIENT_VERSION pinned it. */
export interface VersionNamed {
  version: string | undefined
  pinned: boolean
}

/** Reasons that explain why pairing started over: they stay while the new QR shows, until the session connects. */
const UNTIL_CONNECTED: ReadonlySet<string> = new Set(['logged-out', 'account-refused'])

/**
 * The reason a close leaves the session not connected with, or undefined for a close that explains nothing (a
 * restart the platform asked for, a platform QR that ran out, a close of our own).
 */
export function notConnectedOf(reason: CloseReason, detail: string, named: VersionNamed): NotConnected | undefined {
  switch (reason) {
    case 'client-version-refused': {
      const version = named.version ?? "the client library's bundled version"
      return {
        reason,
        message: named.pinned
          ? `the platform refused web client version ${version} (405), pinned by PLATFORM_CLIENT_VERSION: pin the ` +
            'current version or unset it'
          : `the platform refused web client version ${version} (405): looking up the current one and trying again`,
      }
    }
    case 'proxy-refused':
      return { reason, message: `the session's proxy failed: ${proxyDetail(detail)}; trying again` }
    case 'logged-out':
      return { reason, message: 'the device was logged out from the phone: scan the new QR to pair again' }
    case 'account-refused':
      return {
        reason,
        message: `the platform refused the account (${statusOf(detail)}): it may be banned or restricted, see the phone`,
      }
    case 'replaced':
      return { reason, message: 'another connection took over this device: POST /session/reset pairs again' }
    case 'connection-lost':
      return { reason, message: 'the connection to the platform was lost: trying again' }
    case 'restart-required':
    case 'qr-expired':
    case 'closed-by-us':
      return undefined
  }
}

/** Whether a new QR leaves `current` shown (it explains why pairing started over) or ends it. */
export const outlivesQr = (current: NotConnected | undefined): boolean =>
  current !== undefined && UNTIL_CONNECTED.has(current.reason)

/** The status code a close's detail starts with (`403 Connection Failure` → 403), or `error` when none. */
const statusOf = (detail: string): string => /^\d{3}\b/.exec(detail)?.[0] ?? 'error'

/**
 * The proxy's own words: from `proxy <masked url>: …` on (the URL shows no password), without Baileys' wrapping
 * (`500 WebSocket Error (…)`).
 */
function proxyDetail(detail: string): string {
  const at = detail.indexOf('proxy ')
  const text = at < 0 ? detail : detail.slice(at)
  return (detail.includes('WebSocket Error (') ? text.replace(/\)$/, '') : text).slice(0, 300)
}
