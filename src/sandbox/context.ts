/**
 * @module sandbox/context
 * The shared state every part of the sandbox works on, passed explicitly (no module-level singletons), so several
 * sandboxes can run in one process (tests start one per file on port 0).
 */
import type { Logger } from 'pino'
import type { AccountRegistry } from './accounts.js'
import type { ClientVersionPolicy } from './client-version.js'
import type { NoiseIdentity } from './certs.js'
import type { DeviceLedger } from './device-ledger.js'
import type { FaultState } from './faults.js'
import type { MediaStore } from './media-store.js'
import type { AccountRestrictions } from './restrictions.js'
import type { SandboxStats } from './stats.js'
import type { World } from './types.js'

export interface QrPolicy {
  /** Refs sent in pair-device; Baileys ends with 408 'QR refs attempts ended' when they run out. */
  qrRefs: number
  /** How long the first ref stays scannable on the server side. */
  qrFirstMs: number
  /** How long each following ref stays scannable. */
  qrNextMs: number
}

export interface SandboxContext {
  logger: Logger
  qr: QrPolicy
  noise: NoiseIdentity
  accounts: AccountRegistry
  faults: FaultState
  /** Wire-level counters (GET /stats). */
  stats: SandboxStats
  /** Per companion device: logins, 440 kicks, stanzas on superseded connections (GET /devices). */
  devices: DeviceLedger
  media: MediaStore
  /** Reach-out timelocks and new-chat caps set through the control API (restrictions.ts). */
  restrictions: AccountRestrictions
  caCert: string
  /** `127.0.0.1:PORT` of the HTTPS media host (used verbatim by Baileys in upload URLs). */
  mediaHost(): string
  /** w:mex query ids answered with the account's subscribed channels (the platform rotates these ids). */
  subscribedQueryIds: ReadonlySet<string>
  world(): World
  /** When true, any phone number a client looks up is a registered account (its phone decrypts what it gets). */
  autoRegister: boolean
  /** Answer a device query by LID under that LID, as the platform does (see ServerOptions.lidDeviceAnswers). */
  lidDeviceAnswers: boolean
  /** The oldest web client version a connection may name (405 below it) and the current one GET /trust publishes. */
  clientVersion: ClientVersionPolicy
}
