/**
 * @module protocol/snapshot
 * What an actor publishes on every state change (as a `SnapshotEvent`, thread.ts). The main thread keeps the latest one per session and answers
 * GET /session from it with no thread hop (clients poll it every 2-3 s).
 */
import type { PairingCode } from './commands.js'
import type { AccountRestrictions } from './restrictions.js'

export type SessionState =
  | 'awaiting-qr'
  | 'connecting'
  | 'connected'
  | 'reconnecting' // link lost, a reconnect is scheduled
  | 'disconnected' // link down and no reconnect coming (replaced by another connection); reset brings it back
  | 'deleted'

/** GET /session `reason`: why a session is not connected (actors/session/not-connected.ts). */
export const NOT_CONNECTED_REASONS = [
  'client-version-refused',
  'proxy-refused',
  'logged-out',
  'account-refused',
  'replaced',
  'connection-lost',
] as const

/** Why a session is not connected: a short code for programs, a sentence for people. */
export interface NotConnected {
  reason: (typeof NOT_CONNECTED_REASONS)[number]
  message: string
}

export interface SessionSnapshot {
  id: string
  state: SessionState
  generatedId: string // '' if never paired
  name: string // '' when not connected
  isConnected: boolean
  qrcode: string // base64 PNG, no data: prefix; '' before the first QR and once connected
  picture: string
  /** Epoch ms when an unscanned session is deleted; null once paired. */
  qrDeadline: number | null
  /** The pairing code the platform registered for the current link (POST /session/pairing-code), for the QR page
   * only (GET /session shows what the spec shows); null when none is pending. */
  pairingCode: PairingCode | null
  /** The account's restrictions as the platform last told them, while connected and once read (GET /session
   * shows them, not in the spec); absent or null otherwise. */
  restrictions?: AccountRestrictions | null
  /** Why the session is not connected (GET /session `reason`, `reasonMessage`); absent when connected or when
   * nothing went wrong (actors/session/not-connected.ts). */
  notConnected?: NotConnected
  /** Monotonic per session, so a late snapshot from a dead thread never overwrites a newer one. */
  version: number
}
