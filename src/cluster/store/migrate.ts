/**
 * @module cluster/store/migrate
 * Moves every session of an embedded store (lmdb under DATA_DIR) into Redis, for a gateway switching to cluster
 * mode (`npm run migrate:redis`). Run it with the gateway stopped, the same DATA_KEY (or none) as the DATA_DIR.
 *
 * Rows are copied as stored: with DATA_KEY they are sealed, and their names are keyed hashes that cannot be
 * turned back into key ids, so they are moved byte for byte, with the session's own key (its key file, sealed
 * with DATA_KEY) as `gw:{id}:skey`. The Redis store seals exactly as lmdb does, so it reads them as they are, and
 * nothing is decrypted on the way. Without DATA_KEY, values are copied as text (contacts and sent messages, msgpack
 * in lmdb, become JSON). Each session's data is written first and its registry row last: a session interrupted
 * half-way is not in the registry, and the next run copies it again from the start. A session already in the
 * Redis registry is left alone (a re-run skips what it already moved).
 */
import fs from 'node:fs'
import path from 'node:path'
import { open, type Database, type RootDatabase } from 'lmdb'
import { openLmdbStore } from '../../storage/lmdb-store.js'
import { STORE_FILE } from '../../storage/compaction.js'
import { sessionPrefix, sessionRangeEnd } from '../../storage/keys.js'
import type { SessionRecord } from '../../storage/types.js'
import type { RedisArg } from './connection.js'
import { dataKeysOf, REGISTRY_KEY, sessionKeys } from './keys.js'
import { openRedisStore } from './redis-store.js'

export interface MigrationOptions {
  dataDir: string
  redisUrl: string
  dataKey?: string | undefined
  /** One line per session. */
  log?: (line: string) => void
}

export interface MigrationResult {
  copied: string[]
  skipped: string[]
  /** Rows written to Redis (credentials, keys, contacts, sent messages, session keys). */
  rows: number
}

const HSET_CHUNK = 500

export async function migrateLmdbToRedis(options: MigrationOptions): Promise<MigrationResult> {
  const { dataDir, redisUrl, dataKey } = options
  const log = options.log ?? (() => undefined)
  if (!fs.existsSync(path.join(dataDir, STORE_FILE)))
    throw new Error(`no store in ${dataDir} (${STORE_FILE} not found)`)
  // Opening the store checks DATA_KEY against the DATA_DIR (and seals a registry left from before it was sealed).
  const lmdb = openLmdbStore(dataDir, { dataKey })
  let records: SessionRecord[]
  try {
    records = await lmdb.listSessions()
  } finally {
    await lmdb.close()
  }
  const redis = openRedisStore(redisUrl, { dataKey })
  const root: RootDatabase = open({ path: path.join(dataDir, STORE_FILE), noSubdir: true, maxDbs: 8, readOnly: true })
  const sealed = dataKey !== undefined
  const table = (name: string, plain: 'string' | 'msgpack'): Database<unknown, string> =>
    root.openDB<unknown, string>({ name, encoding: sealed ? 'binary' : plain })
  const dbs = {
    creds: table('creds', 'string'),
    keys: table('keys', 'string'),
    contacts: table('contacts', 'msgpack'),
    sent: table('sent', 'msgpack'),
  }
  const asStored = (value: unknown): RedisArg =>
    Buffer.isBuffer(value)
      ? value
      : value instanceof Uint8Array
        ? Buffer.from(value)
        : typeof value === 'string'
          ? value
          : JSON.stringify(value)
  const result: MigrationResult = { copied: [], skipped: [], rows: 0 }
  try {
    const conn = await redis.connection() // also runs the Redis side of the DATA_KEY check
    for (const record of records) {
      const id = record.id
      if (Number(await conn.command(['HEXISTS', REGISTRY_KEY, id])) === 1) {
        result.skipped.push(id)
        log(`${id}: already in Redis, skipped`)
        continue
      }
      const k = sessionKeys(id)
      await conn.command(['DEL', ...dataKeysOf(id)]) // what an interrupted run left
      let rows = 0
      if (sealed) {
        const keyFile = path.join(dataDir, 'session-keys', Buffer.from(id, 'utf8').toString('hex'))
        if (fs.existsSync(keyFile)) {
          await conn.command(['SET', k.skey, fs.readFileSync(keyFile)])
          rows++
        }
      }
      const creds = dbs.creds.get(id)
      if (creds !== undefined) {
        await conn.command(['SET', k.creds, asStored(creds)])
        rows++
      }
      for (const [db, key] of [
        [dbs.keys, k.keys],
        [dbs.contacts, k.contacts],
        [dbs.sent, k.sent],
      ] as const) {
        let pairs: RedisArg[] = []
        const flush = async () => {
          if (pairs.length) await conn.command(['HSET', key, ...pairs])
          pairs = []
        }
        for (const { key: name, value } of db.getRange({ start: sessionPrefix(id), end: sessionRangeEnd(id) })) {
          pairs.push(String(name).slice(sessionPrefix(id).length), asStored(value))
          rows++
          if (pairs.length >= HSET_CHUNK * 2) await flush()
        }
        await flush()
      }
      await redis.putSession(record) // last: from now on the session exists in Redis
      result.copied.push(id)
      result.rows += rows
      log(`${id}: copied ${rows} rows`)
    }
  } finally {
    await root.close()
    await redis.close()
  }
  return result
}
