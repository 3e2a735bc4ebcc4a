/**
 * @module storage/lmdb-store
 * The default `Store`: one lmdb environment under DATA_DIR, opened by the main thread and by every worker thread
 * (lmdb is safe for many threads and processes). Sub-databases: `sessions` (registry), `creds` (one JSON document
 * per session), `keys` (Signal keys, `<id>\0<type>\0<keyId>`), `contacts` (`<id>\0<contactId>`), `sent` (recently
 * sent messages, `<id>\0<messageId>`: `sent-messages.ts`), `meta` (the DATA_KEY marker). With a DATA_KEY, creds,
 * keys, contacts and sent messages are sealed with AES-256-GCM (`table.ts`,
 * `value-cipher.ts`); the registry holds only ids, hashes and times and stays readable.
 *
 * @example
 * const store = openLmdbStore('./data', { dataKey: process.env.DATA_KEY }) // throws DataKeyError on a wrong key
 * await store.putSession({ id, sessionIdHash, createdAt: Date.now(), qrDeadline: null })
 * const auth = store.auth(id) // Baileys AuthenticationState parts
 */
import fs from 'node:fs'
import path from 'node:path'
import { open, type Database, type RootDatabase } from 'lmdb'
import type { AuthenticationCreds, SignalDataSet, SignalDataTypeMap, SignalKeyStore } from '@whiskeysockets/baileys'
import type { AuthStore, ContactStore, SessionRecord, Store, StoredContact } from './types.js'
import { decodeCreds, decodeKey, encodeValue } from './auth-codec.js'
import { committed, ignoreCommitEchoes } from './commit-failure.js'
import { contactKey, sessionPrefix, sessionRangeEnd, signalKey } from './keys.js'
import { DataKeyError, parseDataKey } from './data-key.js'
import { checkDataKey } from './key-check.js'
import { SentMessages, type StoredSentMessage } from './sent-messages.js'
import { plainObject, plainText, sealedObject, sealedText, Table } from './table.js'
import { createValueCipher } from './value-cipher.js'

interface Dbs {
  root: RootDatabase
  sessions: Database<SessionRecord, string>
  creds: Table<string>
  keys: Table<string>
  contacts: Table<StoredContact>
  sent: SentMessages
}

export interface LmdbStoreOptions {
  /** DATA_KEY (hex or base64 of 32 bytes): seal credentials, Signal keys and contacts. Unset: stored in the clear. */
  dataKey?: string | undefined
}

/** Removes every row of `table` whose key starts with `<id>\0` (must run inside a write transaction). */
function removeSessionRows(table: Table<unknown>, id: string): void {
  table.removeRangeSync(sessionPrefix(id), sessionRangeEnd(id))
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
    async set(data: SignalDataSet) {
      await committed(dbs.root.transaction(() => {
        for (const [type, entries] of Object.entries(data)) {
          for (const [keyId, value] of Object.entries(entries ?? {})) {
            const key = signalKey(id, type, keyId)
            if (value === null || value === undefined) dbs.keys.removeSync(key)
            else dbs.keys.putSync(key, encodeValue(value))
          }
        }
      }))
    },
    async clear() {
      await committed(dbs.root.transaction(() => removeSessionRows(dbs.keys, id)))
    },
  }
  return {
    async readCreds() {
      const text = dbs.creds.get(id)
      return text === undefined ? undefined : decodeCreds(text)
    },
    async writeCreds(creds: AuthenticationCreds) {
      await committed(dbs.creds.put(id, encodeValue(creds)))
    },
    keys,
    async clear() {
      await committed(dbs.root.transaction(() => {
        dbs.creds.removeSync(id)
        removeSessionRows(dbs.keys, id)
        dbs.sent.removeSessionSync(id) // what the old device sent is no one's to ask for again
      }))
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
      await committed(dbs.root.transaction(() => {
        for (const c of contacts) dbs.contacts.putSync(contactKey(id, c.id), c)
      }))
    },
    async clear() {
      await committed(dbs.root.transaction(() => removeSessionRows(dbs.contacts, id)))
    },
  }
}

/** Opens (creating if needed) the store under `dataDir`. Safe to call from several threads at once. Throws
 * DataKeyError when the DATA_KEY (or its absence) does not fit the DATA_DIR (`key-check.ts`). */
export function openLmdbStore(dataDir: string, options: LmdbStoreOptions = {}): Store {
  const keyBytes = options.dataKey === undefined ? undefined : parseDataKey(options.dataKey)
  if (options.dataKey !== undefined && keyBytes?.length !== 32) throw new DataKeyError('DATA_KEY is not 32 bytes of hex or base64')
  const cipher = keyBytes && createValueCipher(keyBytes)
  fs.mkdirSync(dataDir, { recursive: true })
  ignoreCommitEchoes()
  // One file (plus its lock file) beside whatever else lives in DATA_DIR.
  const root = open({ path: path.resolve(dataDir, 'gateway.mdb'), noSubdir: true, maxDbs: 8 })
  const dbs: Dbs = {
    root,
    sessions: root.openDB<SessionRecord, string>({ name: 'sessions', encoding: 'msgpack' }),
    creds: new Table(root, 'creds', cipher ? sealedText(cipher, 'creds') : plainText),
    keys: new Table(root, 'keys', cipher ? sealedText(cipher, 'keys') : plainText),
    contacts: new Table(root, 'contacts', cipher ? sealedObject<StoredContact>(cipher, 'contacts') : plainObject<StoredContact>()),
    sent: new SentMessages(root, new Table(root, 'sent',
      cipher ? sealedObject<StoredSentMessage>(cipher, 'sent') : plainObject<StoredSentMessage>())),
  }
  try {
    checkDataKey(root, cipher, () => !(dbs.creds.isEmpty() && dbs.keys.isEmpty() && dbs.contacts.isEmpty()))
  } catch (err) {
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
      return [...dbs.sessions.getRange().map(e => e.value)]
    },
    async getSession(id) {
      freshSnapshot()
      return dbs.sessions.get(id)
    },
    async putSession(record) {
      await committed(dbs.sessions.put(record.id, record))
    },
    async deleteSession(id) {
      await committed(root.transaction(() => {
        dbs.sessions.removeSync(id)
        dbs.creds.removeSync(id)
        removeSessionRows(dbs.keys, id)
        removeSessionRows(dbs.contacts, id)
        dbs.sent.removeSessionSync(id)
      }))
    },
    auth: id => authStore(dbs, id),
    contacts: id => contactStore(dbs, id),
    sentMessages: (id, limits) => dbs.sent.forSession(id, limits),
    async close() {
      if (closed) return
      closed = true
      await root.close()
    },
  }
}
