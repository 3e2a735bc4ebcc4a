/**
 * @module actors/session/conversations
 * The session's existing conversations in memory, as the brake on new chats asks about them (`has`: one lookup per
 * send), kept in step with the store (storage/conversations.ts). Loaded once when the session starts; new numbers
 * are written in the background, a batch per event-loop turn. Bounded by CONVERSATIONS_MAX: past it the numbers seen
 * longest ago go first (a number seen again moves to the back), from memory and from the store. Only the thread
 * hosting the session writes its rows, so memory and store agree.
 */
import type { Logger } from 'pino'
import type { Conversation, ConversationStore } from '../../storage/conversations.js'

export class Conversations {
  /** Number → when last seen; a Map keeps insertion order, so its first keys are the ones seen longest ago. */
  readonly #seen = new Map<string, number>()
  readonly #store: ConversationStore
  readonly #max: number
  readonly #log: Logger
  #pending: Conversation[] = []
  #evicted: string[] = []
  #writes: Promise<void> = Promise.resolve()
  #flushQueued = false

  constructor(store: ConversationStore, max: number, log: Logger) {
    this.#store = store
    this.#max = max
    this.#log = log
  }

  /** Reads the stored conversations (oldest first); numbers seen meanwhile stay the newest. */
  async load(): Promise<void> {
    const stored = (await this.#store.all()).sort((a, b) => a.seenAt - b.seenAt)
    const since = [...this.#seen]
    this.#seen.clear()
    for (const { phone, seenAt } of stored) this.#seen.set(phone, seenAt)
    for (const [phone, seenAt] of since) {
      this.#seen.delete(phone)
      this.#seen.set(phone, seenAt)
    }
    this.#evict()
  }

  has(phone: string): boolean {
    return this.#seen.has(phone)
  }

  get size(): number {
    return this.#seen.size
  }

  /** Records numbers the account exchanged messages with; a number already known only moves to the back. */
  add(phones: readonly string[], now = Date.now()): void {
    let fresh = false
    for (const phone of phones) {
      const known = this.#seen.delete(phone)
      this.#seen.set(phone, now)
      if (!known) {
        this.#pending.push({ phone, seenAt: now })
        fresh = true
      }
    }
    if (!fresh) return
    this.#evict()
    this.#flushSoon()
  }

  /** Forgets every conversation (the device was unlinked: the next pairing may be another account). */
  async clear(): Promise<void> {
    this.#seen.clear()
    this.#pending = []
    this.#evicted = []
    await this.#writes
    await this.#store.clear()
  }

  /** Resolves once every write queued so far has landed (or failed and been logged). */
  settled(): Promise<void> {
    return this.#writes
  }

  #evict(): void {
    const over = this.#seen.size - this.#max
    if (over <= 0) return
    let left = over
    for (const phone of this.#seen.keys()) {
      if (left-- <= 0) break
      this.#seen.delete(phone)
      this.#evicted.push(phone)
    }
  }

  #flushSoon(): void {
    if (this.#flushQueued) return
    this.#flushQueued = true
    this.#writes = this.#writes
      .then(() => new Promise<void>(resolve => setImmediate(resolve)))
      .then(async () => {
        this.#flushQueued = false
        const rows = this.#pending.filter(c => this.#seen.has(c.phone))
        const evicted = this.#evicted
        this.#pending = []
        this.#evicted = []
        await this.#store.put(rows)
        await this.#store.remove(evicted)
      })
      .catch(err => this.#log.warn({ err }, 'storing conversations failed'))
  }
}
