/**
 * @module storage/sent-messages
 * Each session's recently sent messages, as the protobuf that went out, so that a recipient's retry receipt (its
 * phone could not decrypt a message and asks for it again) can be answered after a restart, a take-over by another
 * process, or once Baileys' own 5-minute memory has forgotten it. Rows live in the `sent` sub-database as
 * `<id>\0<messageId>`, sealed with DATA_KEY like credentials and contacts (`table.ts`): with a key the message id is
 * a keyed hash and the content is AES-256-GCM; the send time is inside the sealed value, never in a row name.
 *
 * Bounded twice: rows older than `maxAgeMs` are neither returned nor kept (pruned on every write and by `prune()`),
 * and past `maxMessages` a session's oldest rows go first. `maxMessages: 0` keeps nothing. The order needed for both
 * is an in-memory index per session (message id → send time), read from the rows once per thread on first use;
 * only the thread hosting a session writes its rows, so the index stays true.
 *
 * One commit per send (each is a write): a send already commits the session's Signal keys once (Baileys' key-store
 * transaction, after the stanza is written); a second transaction for the row cost every send another commit and
 * its wake-ups. `keyWrite()` hands the row over as an entry of that key write (`SENT_MESSAGE_KEY_TYPE`), which the
 * store's key `set` writes here (`writeSync`), in the same transaction as the keys.
 *
 * @example
 * const sent = store.sentMessages(id, { maxAgeMs: 86_400_000, maxMessages: 512 })
 * await sent.put('3EB0…', { message: bytes, chats: ['15550000002@s.whatsapp.net'], sentAt: Date.now() })
 * await sent.get('3EB0…') // { message, chats, sentAt } while young enough, else undefined
 */
import type { RootDatabase } from 'lmdb'
import { committed } from './commit-failure.js'
import { sessionPrefix, sessionRangeEnd } from './keys.js'
import type { Table } from './table.js'

export interface SentMessageLimits {
  /** Rows older than this are dropped. */
  maxAgeMs: number
  /** Rows kept per session; the oldest go first. 0 = keep nothing. */
  maxMessages: number
}

export interface SentMessage {
  /** `proto.Message` as relayed (its encoded bytes). */
  message: Uint8Array
  /** Who may ask for it again: the chat's JIDs without device (phone JID and LID of a contact, or the group JID). */
  chats: string[]
  /** Epoch ms of the send. */
  sentAt: number
}

/** One row as stored (msgpack without DATA_KEY, sealed JSON with it). */
export interface StoredSentMessage {
  id: string
  chats: string[]
  sentAt: number
  /** base64 of the encoded proto.Message */
  message: string
}

/** The entry type under which a sent message rides in a Signal key write (`SentMessageStore.keyWrite`). */
export const SENT_MESSAGE_KEY_TYPE = 'gateway-sent-message'

export interface SentMessageStore {
  /** What it keeps: how long and how many. */
  readonly limits: SentMessageLimits
  /** Keeps a sent message (replacing one of the same id), dropping what the limits no longer allow. */
  put(messageId: string, sent: SentMessage): Promise<void>
  /**
   * The same row as an entry of the session's next Signal key write (`{ [SENT_MESSAGE_KEY_TYPE]: { id: sent } }`),
   * committed with it, by the store whose key `set` understands it; undefined when this store keeps nothing (then
   * nothing needs writing) or cannot (then `put`).
   */
  keyWrite?(messageId: string, sent: SentMessage): Record<string, Record<string, SentMessage>> | undefined
  /** The message while it is younger than `maxAgeMs`, else undefined. */
  get(messageId: string): Promise<SentMessage | undefined>
  /** Removes the session's rows older than `maxAgeMs`. */
  prune(): Promise<void>
  /** Removes every row of the session (reset, logout). */
  clear(): Promise<void>
}

const sentMessageKey = (id: string, messageId: string): string => `${sessionPrefix(id)}${messageId}`

/** The `sent` table of one store, with the per-session order indexes of this thread. */
/** Message ids the limits no longer allow, taken off `index` (message id → sentAt, oldest first); both engines
 * keep their index this way. */
export function evictBeyondLimits(index: Map<string, number>, limits: SentMessageLimits, now: number): string[] {
  const out: string[] = []
  for (const [messageId, sentAt] of index) {
    if (index.size - out.length <= limits.maxMessages && sentAt > now - limits.maxAgeMs) break
    out.push(messageId)
  }
  for (const messageId of out) index.delete(messageId)
  return out
}

export class SentMessages {
  readonly #root: RootDatabase
  readonly #table: Table<StoredSentMessage>
  /** session id → (message id → sentAt), oldest first. */
  readonly #indexes = new Map<string, Map<string, number>>()
  /** session id → the limits its `forSession` gave (a key write carries no limits of its own). */
  readonly #limits = new Map<string, SentMessageLimits>()

  constructor(root: RootDatabase, table: Table<StoredSentMessage>) {
    this.#root = root
    this.#table = table
  }

  /** Inside a write transaction: every row of the session goes (session deletion). */
  removeSessionSync(id: string): void {
    this.#table.removeRangeSync(sessionPrefix(id), sessionRangeEnd(id))
    this.#indexes.delete(id)
  }

  isEmpty(): boolean {
    return this.#table.isEmpty()
  }

  /** Whether the session has any row here (its key must live while it does: session-keys.ts). */
  hasSessionRows(id: string): boolean {
    return this.#table.hasRange(sessionPrefix(id), sessionRangeEnd(id))
  }

  #index(id: string): Map<string, number> {
    let index = this.#indexes.get(id)
    if (!index) {
      const rows = this.#table.range(sessionPrefix(id), sessionRangeEnd(id)).sort((a, b) => a.sentAt - b.sentAt)
      index = new Map(rows.map(r => [r.id, r.sentAt]))
      this.#indexes.set(id, index)
    }
    return index
  }

  async #remove(id: string, messageIds: string[]): Promise<void> {
    if (messageIds.length === 0) return
    await committed(
      this.#root.transaction(() => {
        for (const messageId of messageIds) this.#table.removeSync(sentMessageKey(id, messageId))
      }),
    )
  }

  /**
   * Inside a write transaction: keeps `sent` as session `id`'s row (replacing one of the same id), dropping what the
   * session's limits no longer allow. Without limits from `forSession` in this thread, or with `maxMessages: 0`,
   * nothing is kept.
   */
  writeSync(id: string, messageId: string, sent: SentMessage): void {
    const limits = this.#limits.get(id)
    if (!limits || limits.maxMessages <= 0) return
    const index = this.#index(id)
    index.delete(messageId)
    index.set(messageId, sent.sentAt)
    const evicted = evictBeyondLimits(index, limits, Date.now())
    for (const old of evicted) this.#table.removeSync(sentMessageKey(id, old))
    if (evicted.includes(messageId)) return
    const row: StoredSentMessage = {
      id: messageId,
      chats: sent.chats,
      sentAt: sent.sentAt,
      message: Buffer.from(sent.message).toString('base64'),
    }
    this.#table.putSync(sentMessageKey(id, messageId), row)
  }

  forSession(id: string, limits: SentMessageLimits): SentMessageStore {
    this.#limits.set(id, limits)
    return {
      limits,
      put: async (messageId, sent) => {
        if (limits.maxMessages <= 0) return
        await committed(this.#root.transaction(() => this.writeSync(id, messageId, sent)))
      },
      keyWrite: (messageId, sent) =>
        limits.maxMessages <= 0 ? undefined : { [SENT_MESSAGE_KEY_TYPE]: { [messageId]: sent } },
      get: async messageId => {
        const row = this.#table.get(sentMessageKey(id, messageId))
        if (!row || row.id !== messageId || row.sentAt <= Date.now() - limits.maxAgeMs) return undefined
        return { message: Buffer.from(row.message, 'base64'), chats: row.chats, sentAt: row.sentAt }
      },
      prune: async () => {
        await this.#remove(id, evictBeyondLimits(this.#index(id), limits, Date.now()))
      },
      clear: async () => {
        await committed(this.#root.transaction(() => this.removeSessionSync(id)))
      },
    }
  }
}
