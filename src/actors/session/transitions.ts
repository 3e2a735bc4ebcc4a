/**
 * @module actors/session/transitions
 * What the session does when its link closes, by close reason (SPEC "States and transitions",
 * BAILEYS-MAPPING §1). Pure data, so the table can be read (and tested) apart from the timers that carry it out.
 */
import type { CloseReason } from '../../platform/link.js'
import type { SessionState } from '../../protocol/snapshot.js'

export type AfterClose =
  /** Open a new link at once; nothing visible changes (515 restart, platform QR refs ran out). */
  | { next: 'reopen' }
  /** Logged out on the phone: clear credentials, back to awaiting QR. */
  | { next: 'restart-pairing' }
  /** Show `state`, then reconnect after a backoff delay. */
  | { next: 'reconnect'; state: SessionState }
  /** Show `state` and stay down; only a reset brings the session back. */
  | { next: 'stay-down'; state: SessionState; warning?: string }

export function afterClose(reason: CloseReason, paired: boolean): AfterClose {
  switch (reason) {
    case 'closed-by-us':
      return { next: 'stay-down', state: 'disconnected' }
    case 'restart-required':
      return { next: 'reopen' } // right after pairing: no visible change
    case 'qr-expired':
      // The platform's QR refs ran out; the gateway's own deadline decides when the session dies.
      if (!paired) return { next: 'reopen' }
      break
    case 'logged-out':
    case 'account-refused':
      return { next: 'restart-pairing' }
    case 'replaced':
      // Another socket uses these credentials: reconnecting would ping-pong with it. Stay down.
      return {
        next: 'stay-down',
        state: 'disconnected',
        warning: 'session replaced by another connection; not reconnecting',
      }
    case 'connection-lost':
    case 'client-version-refused': // a new lookup of the current version comes first (link-supervisor.ts)
    case 'proxy-refused':
      break
  }
  return { next: 'reconnect', state: paired ? 'reconnecting' : 'awaiting-qr' }
}
