/**
 * @module storage/value-cipher
 * AES-256-GCM for stored values. Each value gets a fresh random 12-byte nonce; the row's own name (sub-database and
 * key) is the additional authenticated data, so a value copied onto another row, another session or another
 * sub-database fails authentication instead of being read as that row. Layout of a sealed value:
 *   [1 byte format version = 1][12 bytes nonce][ciphertext][16 bytes tag]
 * A wrong key, a changed byte or a swapped value all fail with `SealedValueError`; nothing is ever returned
 * half-decrypted. The row name is not put in the error: Signal key ids name contacts.
 *
 * Row names are hidden too: a Signal key id or a contact id is a phone number or group id, i.e. who the account
 * talks to. `hideName` keeps the session prefix `<id>\0` (range scans per session still work) and replaces the rest
 * with a keyed hash (HMAC-SHA-256, 128 bits, base64url). Values and names use two keys derived from DATA_KEY (HKDF).
 *
 * Two kinds of cipher share the layout, told apart by the version byte: version 1 is sealed with keys derived from
 * DATA_KEY itself (the key-check marker, the session registry, the wrapped session keys, and every session row
 * written before session keys existed); version 2 is sealed with one session's own random key (`session-keys.ts`),
 * so destroying that key makes every copy of the session's rows unreadable, DATA_KEY or not.
 */
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto'

const DATA_KEY_VERSION = 1
export const SESSION_KEY_VERSION = 2
const NONCE_BYTES = 12
const TAG_BYTES = 16
const HEADER_BYTES = 1 + NONCE_BYTES

export class SealedValueError extends Error {
  constructor(readonly db: string) {
    super(`a stored ${db} value failed authentication (wrong DATA_KEY, or the data was altered)`)
    this.name = 'SealedValueError'
  }
}

export interface ValueCipher {
  /** The stored name of a row: `<id>\0` kept, the rest a keyed hash; a name without `\0` is kept whole. */
  hideName(name: string): string
  seal(db: string, key: string, plain: Buffer): Buffer
  /** Throws SealedValueError unless `sealed` was sealed by this key for exactly this row. */
  open(db: string, key: string, sealed: Uint8Array): Buffer
}

const aad = (db: string, key: string): Buffer => Buffer.from(`${db}\u0000${key}`, 'utf8')

/** Random nonces drawn from a pool: one randomBytes call per 4,096 values instead of one per value (each call
 * costs as much as the encryption itself). Every nonce is still 96 fresh random bits. */
function noncePool(): () => Buffer {
  let pool = Buffer.alloc(0)
  let at = 0
  return () => {
    if (at + NONCE_BYTES > pool.length) {
      pool = randomBytes(NONCE_BYTES * 4096)
      at = 0
    }
    at += NONCE_BYTES
    return pool.subarray(at - NONCE_BYTES, at)
  }
}

/** Hidden names are asked for again and again (Baileys reads and writes the same keys): remember the last many.
 * A process holds one cache per session with a key, so those stay small (an HMAC costs about a microsecond; the
 * cache only spares the hot few). */
const NAME_CACHE_SIZE = 50_000
const SESSION_NAME_CACHE_SIZE = 256

const derive = (secret: Buffer, info: string) => Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), info, 32))

/** The version byte of a sealed value (0 for anything too short to be one). */
export const sealedVersion = (sealed: Uint8Array): number =>
  sealed.length >= HEADER_BYTES + TAG_BYTES ? sealed[0]! : 0

/** The cipher of DATA_KEY itself (version 1). */
export function createValueCipher(dataKey: Buffer): ValueCipher {
  if (dataKey.length !== 32) throw new Error('DATA_KEY must be 32 bytes')
  return aeadCipher(
    derive(dataKey, 'messaging-gateway values'),
    DATA_KEY_VERSION,
    nameHider(derive(dataKey, 'messaging-gateway row names'), NAME_CACHE_SIZE),
  )
}

/**
 * The cipher of one session's own key (version 2). `hideName` is given: a session whose rows were written before
 * session keys existed keeps DATA_KEY's row names (they cannot be recomputed: only their hashes are stored).
 */
export function createSessionCipher(sessionKey: Buffer, hideName?: (name: string) => string): ValueCipher {
  if (sessionKey.length !== 32) throw new Error('a session key must be 32 bytes')
  return aeadCipher(
    derive(sessionKey, 'messaging-gateway session values'),
    SESSION_KEY_VERSION,
    hideName ?? nameHider(derive(sessionKey, 'messaging-gateway session row names'), SESSION_NAME_CACHE_SIZE),
  )
}

function nameHider(nameKey: Buffer, cacheSize: number): (name: string) => string {
  const hidden = new Map<string, string>()
  return name => {
    const cut = name.indexOf('\u0000')
    if (cut < 0) return name
    let stored = hidden.get(name)
    if (stored === undefined) {
      const hash = createHmac('sha256', nameKey)
        .update(name.slice(cut + 1), 'utf8')
        .digest()
        .subarray(0, 16)
      stored = `${name.slice(0, cut + 1)}${hash.toString('base64url')}`
      if (hidden.size >= cacheSize) hidden.clear()
      hidden.set(name, stored)
    }
    return stored
  }
}

function aeadCipher(key: Buffer, version: number, hideName: (name: string) => string): ValueCipher {
  const nextNonce = noncePool()
  return {
    hideName,
    seal(db, rowKey, plain) {
      const nonce = nextNonce()
      const cipher = createCipheriv('aes-256-gcm', key, nonce).setAAD(aad(db, rowKey))
      const body = Buffer.concat([cipher.update(plain), cipher.final()])
      return Buffer.concat([Buffer.of(version), nonce, body, cipher.getAuthTag()])
    },
    open(db, rowKey, sealed) {
      const bytes = Buffer.from(sealed.buffer, sealed.byteOffset, sealed.byteLength)
      if (bytes.length < HEADER_BYTES + TAG_BYTES || bytes[0] !== version) throw new SealedValueError(db)
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(1, HEADER_BYTES)).setAAD(aad(db, rowKey))
        decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES))
        return Buffer.concat([
          decipher.update(bytes.subarray(HEADER_BYTES, bytes.length - TAG_BYTES)),
          decipher.final(),
        ])
      } catch {
        throw new SealedValueError(db)
      }
    },
  }
}
