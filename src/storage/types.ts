/**
 * @module storage/types
 * The storage interface. The default engine is embedded (lmdb under DATA_DIR); a networked engine (Redis,
 * PostgreSQL) fits behind the same interface. Every method may be called from any worker thread.
 */
import type { AuthenticationCreds, SignalKeyStore } from '@whiskeysockets/baileys'
import type { SentMessageLimits, SentMessageStore } from './sent-messages.js'

export interface SessionRecord {
  id: string
  /** sha256 of the session's secret (the client's `sessionId`), hex; the secret itself is never stored. On disk
   * the field keeps its first name, `sessionIdHash` (registry-row.ts). */
  secretHash: string
  createdAt: number
  /** Epoch ms at which an unscanned session is deleted; null once paired. */
  qrDeadline: number | null
  /**
   * Epoch ms since when the session has been unpaired (its creation, or the logout that ended its last pairing):
   * its QR deadline never passes this + UNPAIRED_MAX_LIFETIME_MS, however often it is reset. Absent in records
   * written before it existed (then `createdAt` stands in).
   */
  unpairedSince?: number
  /**
   * The session's own proxy (docs/api.md: A proxy per session), the URL in full with its credentials: a secret, sealed
   * with DATA_KEY like the rest of the row, never logged or answered whole. Absent: the default proxy, if any.
   */
  proxy?: string
  /**
   * The shard (worker thread) the session runs on in a single process, chosen when it was created
   * (actors/main/shard-placement.ts); absent in cluster mode and in rows written before it existed (then
   * `hash(id) mod SHARDS`, protocol/shard.ts).
   */
  shard?: number
}

/** One address-book entry, learned from the phone (app-state contact sync) or history sync. */
export interface StoredContact {
  /** `<number>@s.<platform>.net` or `<lid>@lid` */
  id: string
  name: string
  lid?: string
  phone?: string // digits
}

export interface AuthStore {
  readCreds(): Promise<AuthenticationCreds | undefined>
  writeCreds(creds: AuthenticationCreds): Promise<void>
  /** Baileys' key store; `set` is atomic (one transaction), so Baileys' transaction commit is all-or-nothing. */
  keys: SignalKeyStore
  /** Remove credentials, keys and the sent messages kept for retries (logout, reset). */
  clear(): Promise<void>
}

export interface ContactStore {
  all(): Promise<StoredContact[]>
  upsert(contacts: StoredContact[]): Promise<void>
  clear(): Promise<void>
}

export interface Store {
  listSessions(): Promise<SessionRecord[]>
  getSession(id: string): Promise<SessionRecord | undefined>
  putSession(record: SessionRecord): Promise<void>
  /** Deletes the record and everything the session owns (credentials, keys, contacts, sent messages). */
  deleteSession(id: string): Promise<void>
  auth(id: string): AuthStore
  contacts(id: string): ContactStore
  /** Recently sent messages, kept to answer retry receipts (`sent-messages.ts`). */
  sentMessages(id: string, limits: SentMessageLimits): SentMessageStore
  close(): Promise<void>
}
