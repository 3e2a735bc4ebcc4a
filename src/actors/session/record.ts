/**
 * @module actors/session/record
 * The session's persisted record and stored data, as the lifecycle changes them: pairing clears the QR deadline,
 * starting pairing over wipes credentials and contacts and sets a new deadline (the session's proxy stays), deletion
 * removes everything.
 * A session is "paired" exactly when its record has no QR deadline.
 */
import type { Logger } from 'pino'
import type { SessionRecord, Store } from '../../storage/types.js'
import { GatewayError } from '../../protocol/errors.js'

export class SessionRecordKeeper {
  #record: SessionRecord
  readonly #store: Store
  readonly #log: Logger

  constructor(record: SessionRecord, store: Store, log: Logger) {
    this.#record = record
    this.#store = store
    this.#log = log
  }

  /** Epoch ms when an unscanned session is deleted; null once paired. */
  get qrDeadline(): number | null {
    return this.#record.qrDeadline
  }

  get paired(): boolean {
    return this.#record.qrDeadline === null
  }

  /** The session's own proxy URL in full (a secret), or undefined. */
  get proxy(): string | undefined {
    return this.#record.proxy
  }

  /** Stores the session's own proxy (undefined removes it); store failures propagate. */
  async setSessionProxy(proxy: string | undefined): Promise<void> {
    const { proxy: _old, ...rest } = this.#record
    const next: SessionRecord = proxy === undefined ? rest : { ...rest, proxy }
    await this.#store.putSession(next)
    this.#record = next
  }

  /** The device id of the stored credentials, '' if the session never paired. */
  async storedDeviceId(): Promise<string> {
    const creds = await this.#store.auth(this.#record.id).readCreds()
    return creds?.me?.id ?? ''
  }

  /**
   * The QR deadline no longer applies once the account is linked; persisting it keeps a restart from deleting
   * us. The record changes at once (before the write), so `paired` is true as soon as this is called.
   */
  async markPaired(): Promise<void> {
    if (this.paired) return
    this.#record = { ...this.#record, qrDeadline: null }
    try {
      await this.#store.putSession(this.#record)
    } catch (err) {
      this.#log.error({ err }, 'could not persist the pairing')
    }
  }

  /**
   * Clears credentials and contacts and persists a fresh QR deadline; returns it. The deadline is a full QR lifetime
   * away, but never past `maxUnpairedMs` after the session became unpaired: resetting a never-scanned session
   * again and again cannot keep it alive (a deadline already past means its lifetime is used up). Store failures
   * propagate.
   */
  async restartPairing(qrLifetimeMs: number, maxUnpairedMs: number): Promise<number> {
    const id = this.#record.id
    await this.#store.auth(id).clear()
    await this.#store.contacts(id).clear()
    const now = Date.now()
    const unpairedSince = this.paired ? now : (this.#record.unpairedSince ?? this.#record.createdAt)
    const deadline = Math.min(now + qrLifetimeMs, unpairedSince + maxUnpairedMs)
    this.#record = { ...this.#record, qrDeadline: deadline, unpairedSince }
    await this.#store.putSession(this.#record)
    return deadline
  }

  /**
   * Removes the registry entry and all data. False when the store refused because another node runs the session
   * now (cluster mode's fenced removal: 503 SESSION_MOVING); any other failure is logged, since the session is
   * going away regardless.
   */
  async remove(): Promise<boolean> {
    try {
      await this.#store.deleteSession(this.#record.id)
    } catch (err) {
      if (err instanceof GatewayError && err.code === 'SESSION_MOVING') return false
      this.#log.error({ err }, 'could not delete session data')
    }
    return true
  }
}
