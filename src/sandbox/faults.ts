/**
 * @module sandbox/faults
 * Fault switches tests flip through the control API. Persistent switches (reject a recipient, delay replies) live
 * here until DELETE /faults; one-shot actions (drop a session, log a device out) act immediately on live links.
 */
import type { AccountRegistry } from './accounts.js'
import type { NoiseIdentity } from './certs.js'
import { node } from './nodes.js'
import type { Faults } from './types.js'

export class FaultState {
  #faults: Faults
  readonly #listeners: (() => void)[] = []
  /** `<phone>/<message id>` of messages whose first decryption failed: the copy sent again is accepted. */
  readonly #failedOnce = new Set<string>()

  /** `initial`: switches set at start (CLI `--wrong-chain-key`, ...); DELETE /faults clears them too. */
  constructor(initial: Faults = {}) {
    this.#faults = { ...initial }
  }

  get current(): Faults {
    return { ...this.#faults }
  }

  set(patch: Faults): void {
    this.#faults = { ...this.#faults, ...patch }
    this.#changed()
  }

  clear(): void {
    this.#faults = {}
    this.#failedOnce.clear()
    this.#changed()
  }

  /** Called after every set() and clear(): what a switch holds back is let go when it goes off. */
  onChange(listener: () => void): void {
    this.#listeners.push(listener)
  }

  #changed(): void {
    for (const listener of this.#listeners) listener()
  }

  /**
   * Whether `phone`'s phone fails to decrypt message `id` (and asks for it again): the first copy of each of the next
   * `failDecryptCount` messages to `failDecryptOf`; never a message it already failed once.
   */
  failsDecryption(phone: string, id: string): boolean {
    const { failDecryptOf, failDecryptCount = 1 } = this.#faults
    const key = `${phone}/${id}`
    if (failDecryptOf !== phone || failDecryptCount <= 0 || this.#failedOnce.has(key)) return false
    this.#faults.failDecryptCount = failDecryptCount - 1
    this.#failedOnce.add(key)
    return true
  }

  get retryAfterReconnect(): boolean {
    return this.#faults.retryAfterReconnect === true
  }

  /** The error code to nack a message to this phone with, if it is being rejected. */
  rejectCodeFor(phone: string | undefined): number | undefined {
    if (!phone || this.#faults.rejectRecipient !== phone) return undefined
    return this.#faults.rejectCode ?? 479
  }

  /** How long each stanza to a connection of `phone` waits (delayMs, for every account or only delayAccount's). */
  delayFor(phone: string | undefined): number {
    const { delayMs = 0, delayAccount } = this.#faults
    return delayAccount === undefined || delayAccount === phone ? delayMs : 0
  }

  /** The certificate chain a new connection's handshake presents. */
  certChainFor(noise: NoiseIdentity): Buffer {
    return this.#faults.wrongChainKey ? noise.impostorCertChain : noise.certChain
  }

  get wrongAccountSignature(): boolean {
    return this.#faults.wrongAccountSignature === true
  }

  get strictChannelPosts(): boolean {
    return this.#faults.strictChannelPosts === true
  }

  get holdLinkCodes(): boolean {
    return this.#faults.holdLinkCodes === true
  }

  /** The error code to refuse a companion_hello with, if any. */
  get linkCodeError(): number | undefined {
    return this.#faults.linkCodeError
  }

  /** How long a pairing code registered now stays usable. */
  linkCodeTtlMs(fallbackMs: number): number {
    return this.#faults.linkCodeTtlMs ?? fallbackMs
  }
}

/** Cut every live connection of the account's companions (Baileys sees a dropped socket, not a goodbye). */
export function dropSessionsOf(accounts: AccountRegistry, phone: string): number {
  const account = accounts.get(phone)
  let dropped = 0
  for (const companion of account?.companions.values() ?? []) {
    if (companion.link) {
      companion.link.terminate()
      dropped++
    }
  }
  return dropped
}

/** Unlink every companion of the account: live ones get a 401 stream error, later logins fail with 401. */
export function logoutDevicesOf(accounts: AccountRegistry, phone: string): number {
  const account = accounts.get(phone)
  if (!account) return 0
  const removed = [...account.companions.values()]
  account.companions.clear()
  for (const companion of removed) companion.link?.streamError(401, node('conflict', { type: 'device_removed' }))
  return removed.length
}
