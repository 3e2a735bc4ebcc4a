/**
 * @module cluster/store/registry
 * The session registry on Redis: `gw:sessions` (a hash, field = session id, value = the sealed row) and its index
 * of unpaired sessions `gw:unpaired` (a sorted set, score = the QR deadline), kept in step in the same script as
 * every write of a row. Writes and deletions by a session's actor are fenced like the rest of its data (batch.ts):
 * a node that lost the session's lease changes and deletes nothing. A new row is not fenced (nobody holds its lease
 * yet) but is only ever added, never overwritten, under the cluster's creation limits, in one script:
 *   - MAX_SESSIONS rows in the registry at most;
 *   - at most `unpairedCap` sessions awaiting a scan at once, whoever created them (no spread of addresses
 *     exhausts MAX_SESSIONS with sessions nobody scans);
 *   - at most `perClientCap` of them per client (unless the caller proved CREATE_SESSION_TOKEN: 0), the client
 *     named by a keyed hash of its address, so Redis holds no client address.
 *
 * A look-up of an id with no row opens a decoy row of a fresh session's size instead, the same unsealing and parse a
 * found row costs: a node authenticates a request for another node's session by reading its row
 * (cluster/session-auth.ts), and without the decoy a missing id answered tens of microseconds sooner than a wrong
 * secret, telling anyone which session ids exist.
 */
import { luaScript, type RedisConnection } from './connection.js'
import { dataKeysOf, REGISTRY_KEY, sessionKeys, UNPAIRED_KEY, unpairedOfClientKey } from './keys.js'
import type { BatchWriter } from './batch.js'
import type { Sealing } from './sealing.js'
import { fromStoredRecord, toStoredRecord, type StoredSessionRecord } from '../../storage/registry-row.js'
import type { SessionRecord } from '../../storage/types.js'
import { hashEntries } from './hash-entries.js'

/**
 * KEYS registry, unpaired index, the client's unpaired set. ARGV id, row, deadline, max sessions, unpaired cap,
 * per-client cap (0 = none). Replies {'OK'}, {'EXISTS'}, {'FULL'}, or {'UNPAIRED' | 'CLIENT', ms until the
 * soonest of them expires}.
 */
const REGISTER = luaScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then return {'EXISTS'} end
local maxSessions, unpairedCap, perClient = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
if maxSessions > 0 and redis.call('HLEN', KEYS[1]) >= maxSessions then return {'FULL'} end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
local function soonest(key)
  local first = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
  return math.max(0, tonumber(first[2]) - now)
end
if unpairedCap > 0 and redis.call('ZCARD', KEYS[2]) >= unpairedCap then return {'UNPAIRED', soonest(KEYS[2])} end
if perClient > 0 then
  for _, member in ipairs(redis.call('ZRANGE', KEYS[3], 0, -1)) do
    if not redis.call('ZSCORE', KEYS[2], member) then redis.call('ZREM', KEYS[3], member) end
  end
  redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now)
  if redis.call('ZCARD', KEYS[3]) >= perClient then return {'CLIENT', soonest(KEYS[3])} end
  redis.call('ZADD', KEYS[3], ARGV[3], ARGV[1])
  local last = redis.call('ZRANGE', KEYS[3], -1, -1, 'WITHSCORES')
  redis.call('PEXPIREAT', KEYS[3], last[2])
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
return {'OK'}
`)

export interface CreationLimits {
  maxSessions: number
  unpairedCap: number
  /** 0 for a caller not capped per client. */
  perClientCap: number
  /** The client's name in Redis (a keyed hash of its address). */
  clientTag: string
}

export type Registered =
  | { ok: true }
  | { ok: false; reason: 'exists' | 'full' }
  | { ok: false; reason: 'unpaired' | 'client'; retryMs: number }

/** The id of the decoy row: the length of a real one (18 random bytes, base64url), never a real one (a `~`). */
const DECOY_ID = `~${'0'.repeat(23)}`

/** The row of a session just created: what a missing id's look-up opens instead. */
const decoyRecord = (): SessionRecord => ({
  id: DECOY_ID,
  secretHash: '0'.repeat(64),
  createdAt: Date.now(),
  qrDeadline: Date.now(),
  unpairedSince: Date.now(),
})

export function redisRegistry(ready: Promise<RedisConnection>, sealing: Sealing, writer: BatchWriter) {
  const cmd = async (args: Parameters<RedisConnection['command']>[0]) => (await ready).command(args)
  const decode = (id: string, stored: Buffer): SessionRecord =>
    fromStoredRecord(JSON.parse(sealing.openRecord(id, stored)) as StoredSessionRecord)
  const rowOf = (record: SessionRecord) => sealing.sealRecord(record.id, JSON.stringify(toStoredRecord(record)))
  let decoy: Buffer | undefined

  return {
    async listSessions(): Promise<SessionRecord[]> {
      return hashEntries(await cmd(['HGETALL', REGISTRY_KEY])).map(([id, stored]) => decode(id, stored))
    },
    async getSession(id: string): Promise<SessionRecord | undefined> {
      const stored = await cmd(['HGET', REGISTRY_KEY, id])
      if (Buffer.isBuffer(stored)) return decode(id, stored)
      decoy ??= Buffer.from(rowOf(decoyRecord()))
      decode(DECOY_ID, decoy)
      return undefined
    },
    /** The actor's write of its row (pairing, a new QR window): fenced, with the unpaired index in step. */
    async putSession(record: SessionRecord): Promise<void> {
      await writer.unsealed(record.id, batch => {
        batch.hset(REGISTRY_KEY, record.id, rowOf(record))
        if (record.qrDeadline === null) batch.zrem(UNPAIRED_KEY, record.id)
        else batch.zadd(UNPAIRED_KEY, record.qrDeadline, record.id)
      })
    },
    /** The row and everything the session owns, in one fenced script. */
    async deleteSession(id: string): Promise<void> {
      await writer.remove(
        id,
        batch => {
          batch.hdel(REGISTRY_KEY, id).zrem(UNPAIRED_KEY, id)
          for (const key of dataKeysOf(id)) batch.del(key)
          // the lease itself goes when its holder gives it back, right after (actors/session/lifecycle.ts)
          batch.del(sessionKeys(id).epoch).del(sessionKeys(id).owner)
        },
        [],
      )
    },
    /** A new session's row, under the creation limits (see the module comment). */
    async registerNew(record: SessionRecord, limits: CreationLimits): Promise<Registered> {
      if (record.qrDeadline === null) throw new Error('a new session awaits its QR')
      const reply = (await (
        await ready
      ).script(
        REGISTER,
        [REGISTRY_KEY, UNPAIRED_KEY, unpairedOfClientKey(limits.clientTag)],
        [
          record.id,
          rowOf(record),
          String(record.qrDeadline),
          String(limits.maxSessions),
          String(limits.unpairedCap),
          String(limits.perClientCap),
        ],
      )) as [Buffer | string, number?]
      const verdict = String(reply[0])
      if (verdict === 'OK') return { ok: true }
      if (verdict === 'EXISTS') return { ok: false, reason: 'exists' }
      if (verdict === 'FULL') return { ok: false, reason: 'full' }
      return { ok: false, reason: verdict === 'UNPAIRED' ? 'unpaired' : 'client', retryMs: Number(reply[1] ?? 0) }
    },
  }
}
