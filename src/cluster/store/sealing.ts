/**
 * @module cluster/store/sealing
 * How the Redis store turns rows into bytes, exactly as the lmdb store does (`table.ts`, `session-keys.ts`,
 * `value-cipher.ts`), so that a migrated row is the same bytes in both engines:
 *   - without DATA_KEY: values are text (JSON), names are plain;
 *   - with DATA_KEY: each session's rows are sealed (AES-256-GCM, version 2) with its own random key and their
 *     names hidden with it; the key itself is `gw:{id}:skey`, sealed with DATA_KEY and bound to the session id
 *     (the bytes of lmdb's key file); rows sealed with DATA_KEY before session keys existed (version 1) still read.
 *     The registry rows are sealed with DATA_KEY, bound to their id.
 * A row's AAD is its lmdb name (`<id>\0<hidden name>`, or the id for credentials): a value moved to another row,
 * session or table fails to open. Redis never sees a plaintext value or key id when DATA_KEY is set.
 *
 * Deleting or resetting a session deletes its `skey` in the same script as its rows.
 */
import { randomBytes } from 'node:crypto'
import {
  SealedValueError,
  SESSION_KEY_VERSION,
  sealedVersion,
  createSessionCipher,
  type ValueCipher,
} from '../../storage/value-cipher.js'
import { sessionPrefix } from '../../storage/keys.js'
import type { RedisConnection } from './connection.js'
import { dataKeysOf, sessionKeys } from './keys.js'

const KEY_DB = 'session-keys'
const LEGACY_NAMES = 1
const KEY_BYTES = 32

/** How one session's rows are named and sealed, for one read or one write. */
export interface RowSeal {
  /** The hash field of a row named `full` (lmdb name `<id>\0<rest>`): `<rest>`, hidden with DATA_KEY. */
  field(full: string): string
  /** The AAD name of a row stored under `field`. */
  seal(db: string, field: string, text: string): string | Buffer
  open(db: string, field: string, stored: Buffer): string
  /** With DATA_KEY: the stored session key the seal used (a write checks it is still the one in Redis). */
  skey: Buffer | undefined
}

/** The full lmdb-style name of a hash field of session `id` (the AAD of its value). */
const fullName = (id: string, field: string): string => `${sessionPrefix(id)}${field}`

const plainSeal: RowSeal = {
  field: full => full.slice(full.indexOf('\u0000') + 1),
  seal: (_db, _field, value) => value,
  open: (_db, _field, stored) => stored.toString('utf8'),
  skey: undefined,
}

/** Rows are named by session: creds is the id itself, everything else `<id>\0…`. */
export interface Sealing {
  forRead(id: string): Promise<RowSeal>
  forWrite(id: string): Promise<RowSeal>
  /** Registry rows (sealed with DATA_KEY, bound to the id). */
  sealRecord(id: string, json: string): string | Buffer
  openRecord(id: string, stored: Buffer): string
  /** Forgets cached keys of `id` (after its skey was deleted). */
  forget(id: string): void
}

export const plainSealing: Sealing = {
  forRead: async () => plainSeal,
  forWrite: async () => plainSeal,
  sealRecord: (_id, json) => json,
  openRecord: (_id, stored) => stored.toString('utf8'),
  forget: () => undefined,
}

interface CachedKey {
  sealed: Buffer
  cipher: ValueCipher
}

/** DATA_KEY sealing; `wrap` is DATA_KEY's own cipher (createValueCipher). */
export function dataKeySealing(redis: () => Promise<RedisConnection>, wrap: ValueCipher): Sealing {
  const cache = new Map<string, CachedKey>()

  const cipherOf = (id: string, sealed: Buffer): ValueCipher => {
    const hit = cache.get(id)
    if (hit?.sealed.equals(sealed)) return hit.cipher
    const plain = wrap.open(KEY_DB, id, sealed)
    const legacy = plain[0] === LEGACY_NAMES
    const cipher = createSessionCipher(
      plain.subarray(1, 1 + KEY_BYTES),
      legacy ? name => wrap.hideName(name) : undefined,
    )
    plain.fill(0)
    if (cache.size > 10_000) cache.clear()
    cache.set(id, { sealed, cipher })
    return cipher
  }

  const seal = (id: string, cipher: ValueCipher | undefined, skey: Buffer | undefined): RowSeal => {
    const names = cipher ?? wrap
    const hidden = (full: string) => {
      const stored = names.hideName(full)
      return stored.slice(stored.indexOf('\u0000') + 1)
    }
    const aad = (field: string) => (field === '' ? id : fullName(id, field))
    return {
      field: full => (full === id ? '' : hidden(full)),
      seal: (db, field, value) => {
        if (!cipher) throw new Error('no session key to seal with')
        return cipher.seal(db, aad(field), Buffer.from(value, 'utf8'))
      },
      open: (db, field, stored) => {
        const opener = sealedVersion(stored) === SESSION_KEY_VERSION ? cipher : wrap
        if (!opener) throw new SealedValueError(db)
        return opener.open(db, aad(field), stored).toString('utf8')
      },
      skey,
    }
  }

  const read = async (id: string): Promise<RowSeal> => {
    const stored = await (await redis()).command(['GET', sessionKeys(id).skey])
    const skey = Buffer.isBuffer(stored) ? stored : undefined
    return seal(id, skey && cipherOf(id, skey), skey)
  }

  return {
    forRead: read,
    async forWrite(id) {
      const current = await read(id)
      if (current.skey) return current
      const conn = await redis()
      // A session with rows but no key was written before session keys existed: it keeps DATA_KEY's row names.
      const hasRows = Number(await conn.command(['EXISTS', ...dataKeysOf(id)])) > 0
      const sealed = wrap.seal(
        KEY_DB,
        id,
        Buffer.concat([Buffer.of(hasRows ? LEGACY_NAMES : 0), randomBytes(KEY_BYTES)]),
      )
      await conn.command(['SET', sessionKeys(id).skey, sealed, 'NX']) // another writer's key wins
      return read(id)
    },
    sealRecord: (id, json) => wrap.seal('sessions', id, Buffer.from(json, 'utf8')),
    openRecord: (id, stored) => wrap.open('sessions', id, stored).toString('utf8'),
    forget: id => void cache.delete(id),
  }
}
