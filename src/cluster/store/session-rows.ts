/**
 * @module cluster/store/session-rows
 * One session's credentials, Signal keys and contacts on Redis (`gw:{id}:creds`, `:keys`, `:contacts`), sealed as
 * on lmdb (sealing.ts) and written through fenced batches (batch.ts). Clearing them (reset, logout) is fenced too.
 */
import type { AuthenticationCreds, SignalDataSet, SignalDataTypeMap, SignalKeyStore } from '@whiskeysockets/baileys'
import type { AuthStore, ContactStore, StoredContact } from '../../storage/types.js'
import { decodeCreds, decodeKey, encodeValue } from '../../storage/auth-codec.js'
import { contactKey, signalKey } from '../../storage/keys.js'
import type { RedisArg, RedisConnection } from './connection.js'
import { sessionKeys } from './keys.js'
import type { Sealing } from './sealing.js'
import type { BatchWriter } from './batch.js'
import { hashEntries } from './hash-entries.js'

export interface SessionRowDeps {
  ready: Promise<RedisConnection>
  sealing: Sealing
  writer: BatchWriter
  /** The sent messages' index of this thread is stale once the session's rows are cleared. */
  forgetSent(id: string): void
}

export function redisAuthStore({ ready, sealing, writer, forgetSent }: SessionRowDeps, id: string): AuthStore {
  const cmd = async (args: RedisArg[]) => (await ready).command(args)
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
      await writer.write(id, (seal, batch) => {
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
      await writer.remove(id, batch => batch.del(k.keys), [k.creds, k.contacts, k.sent, k.chats])
    },
  }
  return {
    async readCreds() {
      const seal = await sealing.forRead(id)
      const stored = await cmd(['GET', k.creds])
      return Buffer.isBuffer(stored) ? decodeCreds(seal.open('creds', '', stored)) : undefined
    },
    async writeCreds(creds: AuthenticationCreds) {
      const text = encodeValue(creds)
      await writer.write(id, (seal, batch) => batch.set(k.creds, seal.seal('creds', '', text)))
    },
    keys,
    async clear() {
      await writer.remove(id, batch => batch.del(k.creds).del(k.keys).del(k.sent), [k.contacts, k.chats])
      forgetSent(id)
    },
  }
}

export function redisContactStore({ ready, sealing, writer }: SessionRowDeps, id: string): ContactStore {
  const k = sessionKeys(id)
  return {
    all: () => sealedHashRows<StoredContact>({ ready, sealing }, id, k.contacts, 'contacts'),
    upsert: contacts => putSealedHashRows(writer, id, k.contacts, 'contacts', contacts, c => c.id),
    async clear() {
      await writer.remove(id, batch => batch.del(k.contacts), [k.creds, k.keys, k.sent, k.chats])
    },
  }
}

/**
 * Every row of one of a session's sealed hashes (contacts, conversations: field = the row's name hidden with
 * DATA_KEY, value = the sealed JSON row), opened.
 */
export async function sealedHashRows<T>(
  { ready, sealing }: Pick<SessionRowDeps, 'ready' | 'sealing'>,
  id: string,
  key: string,
  db: string,
): Promise<T[]> {
  const seal = await sealing.forRead(id)
  return hashEntries(await (await ready).command(['HGETALL', key])).map(
    ([field, stored]) => JSON.parse(seal.open(db, field, stored)) as T,
  )
}

/** Writes rows into one of a session's sealed hashes through a fenced batch, each under its hidden name. */
export async function putSealedHashRows<T>(
  writer: BatchWriter,
  id: string,
  key: string,
  db: string,
  rows: readonly T[],
  nameOf: (row: T) => string,
): Promise<void> {
  if (rows.length === 0) return
  await writer.write(id, (seal, batch) => {
    for (const row of rows) {
      const field = seal.field(contactKey(id, nameOf(row)))
      batch.hset(key, field, seal.seal(db, field, JSON.stringify(row)))
    }
  })
}
