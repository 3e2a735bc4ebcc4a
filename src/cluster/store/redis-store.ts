/**
 * @module cluster/store/redis-store
 * The `Store` on Redis (cluster mode, REDIS_URL set): the session registry (registry.ts) and every session's
 * credentials, Signal keys, contacts (session-rows.ts), conversations (conversation-rows.ts) and sent messages (sent-store.ts), under the key schema of
 * `keys.ts`, sealed with DATA_KEY exactly as the lmdb store seals them (`sealing.ts`). Every write and removal of
 * a session's rows, its registry row included, is one Lua script (batch.ts, fencing.ts): with a `fence`, it first
 * checks the caller's lease and epoch and refuses the whole write with a `FencedWriteError` when they are stale.
 *
 * The client is loaded and connected in the background (`connection.ts`); the factory itself is synchronous so it
 * drops in where `openLmdbStore` was. A wrong DATA_KEY (or none, for data written with one) makes every call fail
 * with the DataKeyError.
 *
 * @example
 * const store = openRedisStore('redis://127.0.0.1:6379', { dataKey: process.env.DATA_KEY, fence: keeper })
 * await store.auth(id).keys.set({ 'pre-key': { '1': keyPair } })  // FencedWriteError if keeper lost the lease
 */
import type { SessionRecord, Store } from '../../storage/types.js'
import { DataKeyError, parseDataKey } from '../../storage/data-key.js'
import { KEY_MISSING, WRONG_KEY } from '../../storage/key-check.js'
import { createValueCipher, SealedValueError, type ValueCipher } from '../../storage/value-cipher.js'
import type { Fence } from './fencing.js'
import { connectRedis, type RedisConnection } from './connection.js'
import { META_KEY, REGISTRY_KEY } from './keys.js'
import { dataKeySealing, plainSealing, type Sealing } from './sealing.js'
import { batchWriter } from './batch.js'
import { redisRegistry, type CreationLimits, type Registered } from './registry.js'
import { redisAuthStore, redisContactStore } from './session-rows.js'
import { redisSentMessages } from './sent-store.js'
import { redisConversationStore } from './conversation-rows.js'
import { redisPlatformFacts } from './platform-facts.js'

export type { CreationLimits, Registered } from './registry.js'

export interface RedisStoreOptions {
  /** DATA_KEY (hex or base64 of 32 bytes). */
  dataKey?: string | undefined
  /** Cluster mode: every write of a session's rows is checked against this fence. Unset: unfenced (migration). */
  fence?: Fence | undefined
  /** Connection errors (node-redis reconnects by itself). */
  onError?: (err: unknown) => void
}

export interface RedisStore extends Store {
  /** The connection (for the lease keeper and the cluster's heartbeats sharing it, and tests). */
  connection(): Promise<RedisConnection>
  /** A new session's row, under the cluster's creation limits (registry.ts); never overwrites a row. */
  registerNew(record: SessionRecord, limits: CreationLimits): Promise<Registered>
}

const MARKER_FIELD = 'data-key-check'
const MARKER_TEXT = 'messaging-gateway DATA_KEY check v2: registry sealed'
export const REDIS_PLAIN_DATA =
  'this Redis already holds sessions written without DATA_KEY; start without DATA_KEY, ' +
  'or use another Redis database'

export function openRedisStore(url: string, options: RedisStoreOptions = {}): RedisStore {
  const keyBytes = options.dataKey === undefined ? undefined : parseDataKey(options.dataKey)
  if (options.dataKey !== undefined && keyBytes?.length !== 32)
    throw new DataKeyError('DATA_KEY is not 32 bytes of hex or base64')
  const wrap: ValueCipher | undefined = keyBytes && createValueCipher(keyBytes)
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

  const writer = batchWriter(ready, sealing, wrap !== undefined, options.fence)
  const registry = redisRegistry(ready, sealing, writer)
  const sent = redisSentMessages(ready, sealing, writer)
  const rows = { ready, sealing, writer, forgetSent: sent.forget }

  return {
    connection: () => ready,
    listSessions: registry.listSessions,
    getSession: registry.getSession,
    putSession: registry.putSession,
    registerNew: registry.registerNew,
    async deleteSession(id) {
      await registry.deleteSession(id)
      sent.forget(id)
    },
    auth: id => redisAuthStore(rows, id),
    contacts: id => redisContactStore(rows, id),
    conversations: id => redisConversationStore(rows, id),
    sentMessages: sent.store,
    platformFacts: redisPlatformFacts(ready, META_KEY),
    async close() {
      if (closed) return
      closed = true
      connectAbort.abort(new Error('the Redis store was closed before it connected'))
      const conn = await connecting.catch(() => undefined)
      await conn?.close()
    },
  }
}

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
