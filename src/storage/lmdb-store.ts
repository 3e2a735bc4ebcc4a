/**
 * @module storage/lmdb-store
 * The default `Store`: one lmdb environment under DATA_DIR, opened by the main thread and by every worker thread
 * (lmdb is safe for many threads and processes). Sub-databases: `sessions` (registry), `creds` (one JSON document
 * per session), `keys` (Signal keys, `<id>\0<type>\0<keyId>`), `contacts` (`<id>\0<contactId>`), `conversations`
 * (`<id>\0<digits>`: `conversations.ts`), `sent` (recently sent messages, `<id>\0<messageId>`: `sent-messages.ts`),
 * `meta` (the DATA_KEY marker, the compaction flag, the platform facts: `platform-facts.ts`). With a
 * DATA_KEY, creds, keys, contacts and sent messages are sealed with AES-256-GCM under their session's own key
 * (`session-keys.ts`, destroyed when the session is deleted or reset), and the registry rows are sealed with
 * DATA_KEY and bound to their id (`table.ts`, `value-cipher.ts`). Without one, removed rows are dropped from the
 * file by the next start's compaction (`compaction.ts`).
 *
 * DATA_DIR is made 0700 at every open and the store's files 0600: only the gateway's user reads them.
 *
 * @example
 * const store = openLmdbStore('./data', { dataKey: process.env.DATA_KEY }) // throws DataKeyError on a wrong key
 * await store.putSession({ id, secretHash, createdAt: Date.now(), qrDeadline: null })
 * const auth = store.auth(id) // Baileys AuthenticationState parts
 */
import path from 'node:path'
import { open, type Database, type RootDatabase } from 'lmdb'
import type { AuthenticationCreds, SignalDataSet, SignalDataTypeMap, SignalKeyStore } from '@whiskeysockets/baileys'
import type { AuthStore, ContactStore, SessionRecord, Store, StoredContact } from './types.js'
import { decodeCreds, decodeKey, encodeValue } from './auth-codec.js'
import { committed, ignoreCommitEchoes } from './commit-failure.js'
import { contactKey, sessionPrefix, sessionRangeEnd, signalKey } from './keys.js'
import { DataKeyError, parseDataKey } from './data-key.js'
import { checkDataKey } from './key-check.js'
import { markCompactionPending, STORE_FILE } from './compaction.js'
import { lmdbConversations, type StoredConversation } from './conversations.js'
import { privateDir, privateFile } from './file-modes.js'
import { SENT_MESSAGE_KEY_TYPE, type SentMessage, SentMessages, type StoredSentMessage } from './sent-messages.js'
import { SessionKeys } from './session-keys.js'
import { jsonOf, plainObject, plainText, type RowCodec, sealedObject, sessionSealedText, Table } from './table.js'
import { fromStoredRecord, registryRows, type StoredSessionRecord } from './registry-row.js'
import { createValueCipher } from './value-cipher.js'
import { lmdbPlatformFacts } from './platform-facts.js'

interface Dbs {
  root: RootDatabase
  sessions: Table<SessionRecord>
  creds: Table<string>
  keys: Table<string>
  contacts: Table<StoredContact>
  conversations: Table<StoredConversation>
  sent: SentMessages
  meta: Database<Buffer, string>
  /** With DATA_KEY: each session's own key. */
  sessionKeys: SessionKeys | undefined
}

export interface LmdbStoreOptions {
  /** DATA_KEY (hex or base64 of 32 bytes): seal credentials, Signal keys and contacts. Unset: stored in the clear. */
  dataKey?: string | undefined
  /**
   * `commit` (default): each commit is flushed to disk in the background, overlapping the next (lmdb-js's
   * `overlappingSync`); `second`: commits are not flushed one by one (`noSync`) and the file is flushed once a
   * second and at close. Every thread of a process must open the store with the same choice (lmdb refuses to mix).
   */
  flush?: 'commit' | 'second' | undefined
}

/** How often the file is flushed under `flush: 'second'`. */
const FLUSH_EVERY_MS = 1000

/** Removes every row of `table` whose key starts with `<id>\0` (must run inside a write transaction). */
function removeSessionRows(table: Table<unknown>, id: string): void {
  table.removeRangeSync(sessionPrefix(id), sessionRangeEnd(id))
}

const hasSessionRows = (dbs: Dbs, id: string): boolean =>
  dbs.creds.db.get(id) !== undefined ||
  dbs.keys.hasRange(sessionPrefix(id), sessionRangeEnd(id)) ||
  dbs.contacts.hasRange(sessionPrefix(id), sessionRangeEnd(id)) ||
  dbs.conversations.hasRange(sessionPrefix(id), sessionRangeEnd(id)) ||
  dbs.sent.hasSessionRows(id)

/**
 * After rows of `id` were removed, inside the same write transaction: the next start compacts the file, and a
 * session left with no rows loses its key (so every copy of what it had, in live or freed pages, is unreadable;
 * its next write makes a new one). Destroyed here rather than after the commit because write transactions run in
 * order: a write queued after this one already finds the key gone and makes a new one, never sealing under the old.
 * If the commit then fails, the rows that stayed are unreadable: they were being deleted.
 */
function forgetRemoved(dbs: Dbs, id: string): void {
  markCompactionPending(dbs.meta)
  if (dbs.sessionKeys && !hasSessionRows(dbs, id)) dbs.sessionKeys.destroy(id)
}

function authStore(dbs: Dbs, id: string): AuthStore {
  const keys: SignalKeyStore = {
    async get<T extends keyof SignalDataTypeMap>(type: T, ids: string[]) {
      const out: { [id: string]: SignalDataTypeMap[T] } = {}
      for (const keyId of ids) {
        const text = dbs.keys.get(signalKey(id, type, keyId))
        if (text !== undefined) out[keyId] = decodeKey(type, text) as SignalDataTypeMap[T]
      }
      return out
    },
    // One lmdb transaction per call: Baileys commits a whole key transaction with one set(), all or nothing.
    // Values are encoded before the transaction: lmdb-js commits what a callback wrote before it threw. A sent
    // message handed over with the keys (`SentMessageStore.keyWrite`) goes to its own table in the same commit.
    async set(data: SignalDataSet) {
      const { [SENT_MESSAGE_KEY_TYPE]: sent, ...keyData } = data as SignalDataSet &
        Partial<Record<typeof SENT_MESSAGE_KEY_TYPE, Record<string, SentMessage>>>
      const rows = Object.entries(keyData).flatMap(([type, entries]) =>
        Object.entries(entries ?? {}).map(
          ([keyId, value]) =>
            [
              signalKey(id, type, keyId),
              value === null || value === undefined ? undefined : encodeValue(value),
            ] as const,
        ),
      )
      await committed(
        dbs.root.transaction(() => {
          for (const [key, text] of rows) {
            if (text === undefined) dbs.keys.removeSync(key)
            else dbs.keys.putSync(key, text)
          }
          for (const [messageId, message] of Object.entries(sent ?? {})) dbs.sent.writeSync(id, messageId, message)
        }),
      )
    },
    async clear() {
      await committed(
        dbs.root.transaction(() => {
          removeSessionRows(dbs.keys, id)
          forgetRemoved(dbs, id)
        }),
      )
    },
  }
  return {
    async readCreds() {
      const text = dbs.creds.get(id)
      return text === undefined ? undefined : decodeCreds(text)
    },
    // Sealed inside the write transaction, so it is ordered with a clear that destroys the session key.
    async writeCreds(creds: AuthenticationCreds) {
      const text = encodeValue(creds)
      await committed(dbs.root.transaction(() => dbs.creds.putSync(id, text)))
    },
    keys,
    async clear() {
      await committed(
        dbs.root.transaction(() => {
          dbs.creds.removeSync(id)
          removeSessionRows(dbs.keys, id)
          dbs.sent.removeSessionSync(id) // what the old device sent is no one's to ask for again
          forgetRemoved(dbs, id)
        }),
      )
    },
  }
}

function contactStore(dbs: Dbs, id: string): ContactStore {
  return {
    async all() {
      return dbs.contacts.range(sessionPrefix(id), sessionRangeEnd(id))
    },
    async upsert(contacts: StoredContact[]) {
      if (contacts.length === 0) return
      await committed(
        dbs.root.transaction(() => {
          for (const c of contacts) dbs.contacts.putSync(contactKey(id, c.id), c)
        }),
      )
    },
    async clear() {
      await committed(
        dbs.root.transaction(() => {
          removeSessionRows(dbs.contacts, id)
          forgetRemoved(dbs, id)
        }),
      )
    },
  }
}

/** Opens (creating if needed) the store under `dataDir`. Safe to call from several threads at once. Throws
 * DataKeyError when the DATA_KEY (or its absence) does not fit the DATA_DIR (`key-check.ts`). */
export function openLmdbStore(dataDir: string, options: LmdbStoreOptions = {}): Store {
  const keyBytes = options.dataKey === undefined ? undefined : parseDataKey(options.dataKey)
  if (options.dataKey !== undefined && keyBytes?.length !== 32)
    throw new DataKeyError('DATA_KEY is not 32 bytes of hex or base64')
  const cipher = keyBytes && createValueCipher(keyBytes)
  privateDir(dataDir)
  ignoreCommitEchoes()
  // One file (plus its lock file) beside whatever else lives in DATA_DIR.
  const file = path.resolve(dataDir, STORE_FILE)
  const everySecond = options.flush === 'second'
  const root = open({ path: file, noSubdir: true, maxDbs: 8, ...(everySecond ? { noSync: true } : {}) })
  // lmdb-js shares one environment between the threads of a process: each opener's timer flushes all of it, and a
  // flush with nothing new to write is cheap
  const { sync } = root as unknown as { sync(done: (err?: Error) => void): void } // untyped in lmdb-js 3.5
  const flushToDisk = () => new Promise<void>(resolve => sync.call(root, () => resolve()))
  const flushTimer = everySecond ? setInterval(() => void flushToDisk(), FLUSH_EVERY_MS).unref() : undefined
  // lmdb creates them 0644 (umask permitting); the 0700 folder already keeps others out, this says it twice.
  for (const made of [file, `${file}-lock`]) privateFile(made)
  // The session keys ask whether a session already has rows; the tables they seal are made after them.
  let dbs: Dbs
  const sessionKeys = cipher && new SessionKeys(dataDir, cipher, id => hasSessionRows(dbs, id))
  const sealed = (db: string) => sessionSealedText(sessionKeys!, cipher!, db)
  /** Objects: sealed JSON with the session's key, or plain msgpack without DATA_KEY. */
  const rowsOf = <T>(db: string): RowCodec<T> => (cipher ? jsonOf<T>(sealed(db)) : plainObject<T>())
  dbs = {
    root,
    sessions: new Table(
      root,
      'sessions',
      registryRows(cipher ? sealedObject<StoredSessionRecord>(cipher, 'sessions') : plainObject<StoredSessionRecord>()),
    ),
    creds: new Table(root, 'creds', cipher ? sealed('creds') : plainText),
    keys: new Table(root, 'keys', cipher ? sealed('keys') : plainText),
    contacts: new Table(root, 'contacts', rowsOf<StoredContact>('contacts')),
    conversations: new Table(root, 'conversations', rowsOf<StoredConversation>('conversations')),
    sent: new SentMessages(root, new Table(root, 'sent', rowsOf<StoredSentMessage>('sent'))),
    meta: root.openDB<Buffer, string>({ name: 'meta', encoding: 'binary' }),
    sessionKeys,
  }
  try {
    checkDataKey(
      root,
      cipher,
      () => !(dbs.creds.isEmpty() && dbs.keys.isEmpty() && dbs.contacts.isEmpty()),
      () => sealRegistry(root, dbs.sessions),
    )
  } catch (err) {
    clearInterval(flushTimer)
    root.close().catch(() => undefined)
    throw err
  }
  let closed = false
  // lmdb-js keeps one read transaction per thread and resets it only on a timer after use, so a shard thread
  // that handles several tasks in one event-loop turn reads the registry as it was at its first read: a session
  // the main thread had just registered looked missing (start failed, the QR never came). The registry is the
  // one thing written by one thread and read by another, so its reads start from the newest commit.
  const freshSnapshot = () => root.resetReadTxn()

  return {
    async listSessions() {
      freshSnapshot()
      return dbs.sessions.entries().map(([, record]) => record)
    },
    async getSession(id) {
      freshSnapshot()
      return dbs.sessions.get(id)
    },
    async putSession(record) {
      await committed(
        root.transaction(() => {
          // A replaced or removed proxy leaves its credentials in the page lmdb frees: the next start drops them.
          const before = dbs.sessions.get(record.id)?.proxy
          if (before !== undefined && before !== record.proxy) markCompactionPending(dbs.meta)
          dbs.sessions.putSync(record.id, record)
        }),
      )
    },
    async deleteSession(id) {
      await committed(
        root.transaction(() => {
          dbs.sessions.removeSync(id)
          dbs.creds.removeSync(id)
          removeSessionRows(dbs.keys, id)
          removeSessionRows(dbs.contacts, id)
          removeSessionRows(dbs.conversations, id)
          dbs.sent.removeSessionSync(id)
          forgetRemoved(dbs, id)
        }),
      )
    },
    conversations: id => lmdbConversations(root, dbs.conversations, id, () => forgetRemoved(dbs, id)),
    auth: id => authStore(dbs, id),
    contacts: id => contactStore(dbs, id),
    sentMessages: (id, limits) => dbs.sent.forSession(id, limits),
    platformFacts: lmdbPlatformFacts(dbs.meta),
    async close() {
      if (closed) return
      closed = true
      clearInterval(flushTimer)
      if (everySecond) await flushToDisk()
      await root.close()
    },
  }
}

/** Seals the registry rows a DATA_DIR keyed before the registry was sealed still holds in plain msgpack (inside
 * the key check's transaction). */
function sealRegistry(root: RootDatabase, sessions: Table<SessionRecord>): void {
  const plain = root.openDB<StoredSessionRecord, string>({ name: 'sessions', encoding: 'msgpack' })
  const rows = [...plain.getRange()].filter(row => typeof row.key === 'string')
  for (const key of [...sessions.db.getKeys()]) sessions.db.removeSync(key)
  for (const { key, value } of rows) sessions.putSync(key, fromStoredRecord(value))
}
