/**
 * @module storage/redis/redis-store
 * The `Store` on Redis (cluster mode, REDIS_URL set): the session registry and every session's credentials, Signal
 * keys, contacts and sent messages, under the key schema of `keys.ts`, sealed with DATA_KEY exactly as the lmdb
 * store seals them (`sealing.ts`). Every write of a session's rows is one Lua script (`WRITE_SCRIPT`,
 * cluster/fencing.ts): with a `fence`, it first checks the caller's lease and epoch and refuses the whole write
 * with a `FencedWriteError` when they are stale; Baileys' `keys.set()` batch is applied whole or not at all.
 * Resets and deletions (`clear`, `deleteSession`) are one script too, not fenced yet: they only remove, and the
 * actor that runs them may already have given its lease back.
 *
 * The client is loaded and connected in the background (`connection.ts`); the factory itself is synchronous so it
 * drops in where `openLmdbStore` was. A wrong DATA_KEY (or none, for data written with one) makes every call fail
 * with the DataKeyError.
 *
 * @example
 * const store = openRedisStore('redis://127.0.0.1:6379', { dataKey: process.env.DATA_KEY, fence: keeper })
 * await store.auth(id).keys.set({ 'pre-key': { '1': keyPair } })  // FencedWriteError if keeper lost the lease
 */
import type { AuthenticationCreds, SignalDataSet, SignalDataTypeMap, SignalKeyStore } from '@whiskeysockets/baileys'
import type { AuthStore, ContactStore, SessionRecord, Store, StoredContact } from '../types.js'
import {
  evictBeyondLimits,
  type SentMessage,
  type SentMessageLimits,
  type SentMessageStore,
  type StoredSentMessage,
} from '../sent-messages.js'
import { decodeCreds, decodeKey, encodeValue } from '../auth-codec.js'
import { DataKeyError, parseDataKey } from '../data-key.js'
import { fromStoredRecord, toStoredRecord, type StoredSessionRecord } from '../registry-row.js'
import { contactKey, signalKey, sessionPrefix } from '../keys.js'
import { KEY_MISSING, WRONG_KEY } from '../key-check.js'
import { createValueCipher, SealedValueError, type ValueCipher } from '../value-cipher.js'
import {
  countFencedWrite,
  FencedWriteError,
  leaseValue,
  WRITE_SCRIPT,
  type Fence,
  type FenceToken,
} from '../../cluster/fencing.js'
import { connectRedis, type RedisArg, type RedisConnection } from './connection.js'
import { dataKeysOf, META_KEY, REGISTRY_KEY, sessionKeys } from './keys.js'
import { dataKeySealing, plainSealing, type RowSeal, type Sealing } from './sealing.js'

export interface RedisStoreOptions {
  /** DATA_KEY (hex or base64 of 32 bytes). */
  dataKey?: string | undefined
  /** Cluster mode: every write of a session's rows is checked against this fence. Unset: unfenced (migration). */
  fence?: Fence | undefined
  /** Connection errors (node-redis reconnects by itself). */
  onError?: (err: unknown) => void
}

export interface RedisStore extends Store {
  /** The connection (for the lease keeper sharing it, and tests). */
  connection(): Promise<RedisConnection>
}

const MARKER_FIELD = 'data-key-check'
const MARKER_TEXT = 'messaging-gateway DATA_KEY check v2: registry sealed'
export const REDIS_PLAIN_DATA =
  'this Redis already holds sessions written without DATA_KEY; start without DATA_KEY, ' +
  'or use another Redis database'

/** A batch of writes for one session, applied by WRITE_SCRIPT. */
class Batch {
  readonly keys: string[]
  readonly ops: RedisArg[] = []
  readonly #index = new Map<string, string>()

  constructor(readonly id: string) {
    const k = sessionKeys(id)
    this.keys = [k.lease, k.epoch, k.skey]
  }

  #key(key: string): string {
    let at = this.#index.get(key)
    if (at === undefined) {
      this.keys.push(key)
      at = String(this.keys.length)
      this.#index.set(key, at)
    }
    return at
  }

  set(key: string, value: RedisArg): this {
    this.ops.push('S', this.#key(key), value)
    return this
  }
  del(key: string): this {
    this.ops.push('D', this.#key(key))
    return this
  }
  hset(key: string, field: string, value: RedisArg): this {
    this.ops.push('H', this.#key(key), field, value)
    return this
  }
  hdel(key: string, field: string): this {
    this.ops.push('X', this.#key(key), field)
    return this
  }
  /** Deletes the session key if none of `keys` is left (last op of a removal). */
  dropKeyUnless(keys: string[]): this {
    this.ops.push('Z', String(keys.length), ...keys.map(k => this.#key(k)))
    return this
  }
  get empty(): boolean {
    return this.ops.length === 0
  }
}

/** A HGETALL reply as [field, value] pairs (node-redis gives an array, a Map or an object depending on mapping). */
export const hashEntries = (reply: unknown): Array<[string, Buffer]> => {
  if (reply instanceof Map) return [...reply].map(([f, v]) => [String(f), v as Buffer])
  if (Array.isArray(reply)) {
    const out: Array<[string, Buffer]> = []
    for (let i = 0; i + 1 < reply.length; i += 2) out.push([String(reply[i]), reply[i + 1] as Buffer])
    return out
  }
  return reply && typeof reply === 'object' ? Object.entries(reply as Record<string, Buffer>) : []
}

export function openRedisStore(url: string, options: RedisStoreOptions = {}): RedisStore {
  const keyBytes = options.dataKey === undefined ? undefined : parseDataKey(options.dataKey)
  if (options.dataKey !== undefined && keyBytes?.length !== 32)
    throw new DataKeyError('DATA_KEY is not 32 bytes of hex or base64')
  const wrap: ValueCipher | undefined = keyBytes && createValueCipher(keyBytes)
  const fence = options.fence
  // close() aborts a connect still under way: with Redis down from the start it would otherwise wait for ever.
  const connectAbort = new AbortController()
  const connecting = connectRedis(url, options.onError, connectAbort.signal)
  connecting.catch(() => undefined)
  const sealing: Sealing = wrap ? dataKeySealing(() => connecting, wrap) : plainSealing
  const ready: Promise<RedisConnection> = connecting.then(async conn => {
    await checkDataKey(conn, wrap)
    return conn
  })
  ready.catch(() => undefined)
  let closed = false

  const cmd = async (args: RedisArg[]) => (await ready).command(args)

  /** Applies a batch with the session's fence (when `fenced`) and the session key check of `seal`. */
  async function apply(batch: Batch, seal: RowSeal | undefined, fenced: boolean): Promise<void> {
    if (batch.empty) return
    const conn = await ready
    let token: FenceToken | undefined
    if (fenced && fence) {
      try {
        token = fence.token(batch.id)
      } catch (err) {
        if (err instanceof FencedWriteError) countFencedWrite()
        throw err
      }
    }
    const skeyCheck = !wrap || !seal ? '0' : seal.skey ? '1' : '2'
    const args: RedisArg[] = [
      token ? '1' : '0',
      token ? leaseValue(token) : '',
      token ? String(token.epoch) : '',
      skeyCheck,
      seal?.skey ?? '',
      ...batch.ops,
    ]
    try {
      await conn.script(WRITE_SCRIPT, batch.keys, args)
    } catch (err) {
      const message = err instanceof Error ? err.message : ''
      if (token && message.startsWith('FENCED')) {
        countFencedWrite()
        fence!.refused(batch.id, token)
        throw new FencedWriteError(batch.id, message.includes('stale-epoch') ? 'stale-epoch' : 'lease-lost')
      }
      if (message.startsWith('STALEKEY')) throw new StaleSessionKey()
      throw err
    }
  }

  /** A sealed write: builds the batch with the session's write seal; once more if its key changed meanwhile. */
  async function write(id: string, build: (seal: RowSeal, batch: Batch) => void): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      const seal = await sealing.forWrite(id)
      const batch = new Batch(id)
      build(seal, batch) // everything is encoded and sealed before anything is sent: a failure writes nothing
      try {
        return await apply(batch, seal, true)
      } catch (err) {
        if (!(err instanceof StaleSessionKey) || attempt > 0) throw err
      }
    }
  }

  /** Removes rows of one session (and, when nothing is left, its key), unfenced. */
  async function remove(id: string, build: (batch: Batch) => void, keysLeft: string[]): Promise<void> {
    const batch = new Batch(id)
    build(batch)
    // The session key goes with the last of its rows, in the same script: whatever was sealed with it can no
    // longer be read, and no write can slip in between.
    if (wrap) batch.dropKeyUnless(keysLeft)
    await apply(batch, undefined, false)
    sealing.forget(id)
  }

  function authStore(id: string): AuthStore {
    const k = sessionKeys(id)
    const keys: SignalKeyStore = {
      async get<T extends keyof SignalDataTypeMap>(type: T, ids: string[]) {
        const out: { [id: string]: SignalDataTypeMap[T] } = {}
        if (ids.length === 0) return out
        const seal = await sealing.forRead(id)
        const fields = ids.map(keyId => seal.field(signalKey(id, type, keyId)))
        const values = (await cmd(['HMGET', k.keys, ...fields])) as Array<Buffer | null>
        ids.forEach((keyId, i) => {
          const stored = values[i]
          if (stored) out[keyId] = decodeKey(type, seal.open('keys', fields[i]!, stored)) as SignalDataTypeMap[T]
        })
        return out
      },
      async set(data: SignalDataSet) {
        await write(id, (seal, batch) => {
          for (const [type, entries] of Object.entries(data)) {
            for (const [keyId, value] of Object.entries(entries ?? {})) {
              const field = seal.field(signalKey(id, type, keyId))
              if (value === null || value === undefined) batch.hdel(k.keys, field)
              else batch.hset(k.keys, field, seal.seal('keys', field, encodeValue(value)))
            }
          }
        })
      },
      async clear() {
        await remove(id, batch => batch.del(k.keys), [k.creds, k.contacts, k.sent])
      },
    }
    const auth: AuthStore = {
      async readCreds() {
        const seal = await sealing.forRead(id)
        const stored = await cmd(['GET', k.creds])
        return Buffer.isBuffer(stored) ? decodeCreds(seal.open('creds', '', stored)) : undefined
      },
      async writeCreds(creds: AuthenticationCreds) {
        const text = encodeValue(creds)
        await write(id, (seal, batch) => batch.set(k.creds, seal.seal('creds', '', text)))
      },
      keys,
      async clear() {
        await remove(id, batch => batch.del(k.creds).del(k.keys).del(k.sent), [k.contacts])
        sentIndexes.delete(id)
      },
    }
    authIds.set(auth, id)
    return auth
  }

  function contactStore(id: string): ContactStore {
    const k = sessionKeys(id)
    return {
      async all() {
        const seal = await sealing.forRead(id)
        return hashEntries(await cmd(['HGETALL', k.contacts])).map(
          ([field, stored]) => JSON.parse(seal.open('contacts', field, stored)) as StoredContact,
        )
      },
      async upsert(contacts: StoredContact[]) {
        if (contacts.length === 0) return
        await write(id, (seal, batch) => {
          for (const c of contacts) {
            const field = seal.field(contactKey(id, c.id))
            batch.hset(k.contacts, field, seal.seal('contacts', field, JSON.stringify(c)))
          }
        })
      },
      async clear() {
        await remove(id, batch => batch.del(k.contacts), [k.creds, k.keys, k.sent])
      },
    }
  }

  /** session id → (message id → sentAt), oldest first: this thread's view, as in sent-messages.ts. */
  const sentIndexes = new Map<string, Map<string, number>>()

  async function readSent(id: string): Promise<StoredSentMessage[]> {
    const seal = await sealing.forRead(id)
    return hashEntries(await cmd(['HGETALL', sessionKeys(id).sent])).map(
      ([field, stored]) => JSON.parse(seal.open('sent', field, stored)) as StoredSentMessage,
    )
  }

  async function sentIndex(id: string): Promise<Map<string, number>> {
    let index = sentIndexes.get(id)
    if (!index) {
      const rows = (await readSent(id)).sort((a, b) => a.sentAt - b.sentAt)
      index = sentIndexes.get(id) ?? new Map(rows.map(r => [r.id, r.sentAt]))
      sentIndexes.set(id, index)
    }
    return index
  }

  function sentStore(id: string, limits: SentMessageLimits): SentMessageStore {
    const key = sessionKeys(id).sent
    const name = (messageId: string) => `${sessionPrefix(id)}${messageId}`
    return {
      async put(messageId: string, sent: SentMessage) {
        if (limits.maxMessages <= 0) return
        const index = await sentIndex(id)
        index.delete(messageId)
        index.set(messageId, sent.sentAt)
        const evicted = evictBeyondLimits(index, limits, Date.now())
        const row: StoredSentMessage = {
          id: messageId,
          chats: sent.chats,
          sentAt: sent.sentAt,
          message: Buffer.from(sent.message).toString('base64'),
        }
        await write(id, (seal, batch) => {
          for (const old of evicted) batch.hdel(key, seal.field(name(old)))
          if (!evicted.includes(messageId)) {
            const field = seal.field(name(messageId))
            batch.hset(key, field, seal.seal('sent', field, JSON.stringify(row)))
          }
        })
      },
      async get(messageId: string) {
        const seal = await sealing.forRead(id)
        const field = seal.field(name(messageId))
        const stored = await cmd(['HGET', key, field])
        if (!Buffer.isBuffer(stored)) return undefined
        const row = JSON.parse(seal.open('sent', field, stored)) as StoredSentMessage
        if (row.id !== messageId || row.sentAt <= Date.now() - limits.maxAgeMs) return undefined
        return { message: Buffer.from(row.message, 'base64'), chats: row.chats, sentAt: row.sentAt }
      },
      async prune() {
        const old = evictBeyondLimits(await sentIndex(id), limits, Date.now())
        if (old.length === 0) return
        await write(id, (seal, batch) => {
          for (const messageId of old) batch.hdel(key, seal.field(name(messageId)))
        })
      },
      async clear() {
        await remove(id, batch => batch.del(key), [
          sessionKeys(id).creds,
          sessionKeys(id).keys,
          sessionKeys(id).contacts,
        ])
        sentIndexes.delete(id)
      },
    }
  }

  const decodeRecord = (id: string, stored: Buffer): SessionRecord =>
    fromStoredRecord(JSON.parse(sealing.openRecord(id, stored)) as StoredSessionRecord)

  return {
    connection: () => ready,
    async listSessions() {
      return hashEntries(await cmd(['HGETALL', REGISTRY_KEY])).map(([id, stored]) => decodeRecord(id, stored))
    },
    async getSession(id) {
      const stored = await cmd(['HGET', REGISTRY_KEY, id])
      return Buffer.isBuffer(stored) ? decodeRecord(id, stored) : undefined
    },
    async putSession(record) {
      await cmd([
        'HSET',
        REGISTRY_KEY,
        record.id,
        sealing.sealRecord(record.id, JSON.stringify(toStoredRecord(record))),
      ])
    },
    async deleteSession(id) {
      // The registry row first: a session without one is never restored, whatever rows a failure leaves behind.
      await cmd(['HDEL', REGISTRY_KEY, id])
      await remove(
        id,
        batch => {
          for (const key of dataKeysOf(id)) batch.del(key)
        },
        [],
      )
      sentIndexes.delete(id)
    },
    auth: authStore,
    contacts: contactStore,
    sentMessages: sentStore,
    async close() {
      if (closed) return
      closed = true
      connectAbort.abort(new Error('the Redis store was closed before it connected'))
      const conn = await connecting.catch(() => undefined)
      await conn?.close()
    },
  }
}

class StaleSessionKey extends Error {}

/** The session each auth store handed out belongs to (the lease guard, cluster/lease-guard.ts, needs it). */
const authIds = new WeakMap<AuthStore, string>()
export const sessionIdOf = (auth: AuthStore): string | undefined => authIds.get(auth)

/** The DATA_KEY rules of key-check.ts, on `gw:meta`. */
async function checkDataKey(conn: RedisConnection, wrap: ValueCipher | undefined): Promise<void> {
  const marker = await conn.command(['HGET', META_KEY, MARKER_FIELD])
  if (!wrap) {
    if (Buffer.isBuffer(marker)) throw new DataKeyError(KEY_MISSING.replace('DATA_DIR', 'Redis'))
    return
  }
  if (!Buffer.isBuffer(marker)) {
    if (Number(await conn.command(['HLEN', REGISTRY_KEY])) > 0) throw new DataKeyError(REDIS_PLAIN_DATA)
    await conn.command(['HSETNX', META_KEY, MARKER_FIELD, wrap.seal('meta', MARKER_FIELD, Buffer.from(MARKER_TEXT))])
    return checkDataKey(conn, wrap)
  }
  try {
    if (wrap.open('meta', MARKER_FIELD, marker).toString() === MARKER_TEXT) return
  } catch (err) {
    if (!(err instanceof SealedValueError)) throw err
  }
  throw new DataKeyError(WRONG_KEY.replace('DATA_DIR', 'Redis'))
}
