/**
 * @module actors/main/unpaired-clients
 * Unpaired sessions per client (UNPAIRED_PER_CLIENT): a never-scanned session costs a platform connection and an
 * actor for its whole QR lifetime, so one address must not be able to hold many of them (with SESSION_CREATE_PER_MINUTE
 * alone, 30 a minute reach MAX_SESSIONS in under 90 minutes, and then nobody can create a session). Counted on the
 * main thread from the sessions this process created; a session leaves its client's count once it pairs or is
 * gone, which is checked lazily from the snapshot cache at the next creation. After a restart the counts start
 * empty (sessions restored from storage carry no client), which the lifetime cap bounds anyway.
 */
import { GatewayError, retryAfterFromMs } from '../../protocol/errors.js'

/** Epoch ms of the session's QR deadline while it is unpaired and alive; undefined once paired or gone. */
export type UnpairedDeadline = (id: string) => number | undefined

export class UnpairedClients {
  readonly #cap: number
  readonly #deadline: UnpairedDeadline
  readonly #byClient = new Map<string, Set<string>>()

  constructor(cap: number, deadline: UnpairedDeadline) {
    this.#cap = cap
    this.#deadline = deadline
  }

  /** Throws 429 (Retry-After: until the client's first unpaired session expires) when `client` is at the cap. */
  check(client: string, now = Date.now()): void {
    if (this.#cap <= 0) return
    const ids = this.#byClient.get(client)
    if (ids === undefined) return
    let soonest = Infinity
    for (const id of ids) {
      const deadline = this.#deadline(id)
      if (deadline === undefined) ids.delete(id)
      else soonest = Math.min(soonest, deadline)
    }
    if (ids.size === 0) this.#byClient.delete(client)
    if (ids.size < this.#cap) return
    throw new GatewayError('UNPAIRED_CAP', { max: this.#cap, retryAfterSeconds: retryAfterFromMs(soonest - now) })
  }

  add(client: string, id: string): void {
    if (this.#cap <= 0) return
    let ids = this.#byClient.get(client)
    if (ids === undefined) this.#byClient.set(client, (ids = new Set()))
    ids.add(id)
  }
}
