/**
 * @module platform/baileys/patches/signal-hmac
 * HMAC-SHA-256 as two one-shot hashes (RFC 2104), for libsignal's message keys and Baileys' HKDF, in the thread
 * that runs the platform client.
 *
 * Why: libsignal makes about seven HMACs for each device a message is encrypted to (two to step the chain,
 * four in `deriveSecrets`, one for the message's MAC), each through `createHmac`: a KeyObject (`crypto-keys.ts`),
 * an HMAC object and its context, `update`, `digest`. A text to a contact with its devices and the account's own
 * made ~40 of them, and in a send burst's profile they were ~10 % of the shard thread's CPU. Node's one-shot
 * `crypto.hash` makes neither object: an HMAC of a short message is ~2.0 µs this way against ~3.4 µs
 * (a scratch microbench, Node 24). Baileys' HKDF (each message's reporting token, app-state keys) gets the same
 * two hashes instead of `hkdfSync`, which cost ~6 µs a call alone and ~30 µs inside a send burst's profile.
 *
 * How: `calculateMAC`, `deriveSecrets` and `verifyMAC` on the exports of libsignal's `src/crypto.js` (the copy
 * Baileys loads) are replaced by functions with the same checks, results and errors; libsignal's session code
 * calls them through that exports object, so it gets them. No node_modules edit.
 */
import { AssertionError } from 'node:assert'
import { hash, timingSafeEqual } from 'node:crypto'
import { createRequire } from 'node:module'

const BLOCK_BYTES = 64
const DIGEST_BYTES = 32
const INNER_PAD = 0x36
const OUTER_PAD = 0x5c

/** A key's two padded blocks: made once when one key signs several messages (HKDF's pseudo-random key). */
export interface HmacKey {
  readonly inner: Buffer
  readonly outer: Buffer
}

export function hmacKey(key: Uint8Array): HmacKey {
  // RFC 2104: a key longer than the hash's block is hashed first; a shorter one is padded with zeros
  const k = key.byteLength > BLOCK_BYTES ? hash('sha256', key, 'buffer') : key
  const inner = Buffer.allocUnsafe(BLOCK_BYTES)
  const outer = Buffer.allocUnsafe(BLOCK_BYTES)
  for (let i = 0; i < BLOCK_BYTES; i++) {
    const byte = i < k.byteLength ? k[i]! : 0
    inner[i] = byte ^ INNER_PAD
    outer[i] = byte ^ OUTER_PAD
  }
  return { inner, outer }
}

/** HMAC-SHA-256 of the parts, one after another, under a prepared key. */
export function hmacWith(key: HmacKey, ...parts: readonly Uint8Array[]): Buffer {
  let length = BLOCK_BYTES
  for (const part of parts) length += part.byteLength
  const first = Buffer.allocUnsafe(length)
  key.inner.copy(first, 0)
  let at = BLOCK_BYTES
  for (const part of parts) {
    first.set(part, at)
    at += part.byteLength
  }
  const second = Buffer.allocUnsafe(BLOCK_BYTES + DIGEST_BYTES)
  key.outer.copy(second, 0)
  hash('sha256', first, 'buffer').copy(second, BLOCK_BYTES)
  return hash('sha256', second, 'buffer')
}

export const hmacSha256 = (key: Uint8Array, data: Uint8Array): Buffer => hmacWith(hmacKey(key), data)

/**
 * HKDF with SHA-256 (RFC 5869): no salt is the hash's length of zero bytes (HMAC pads a shorter key with zeros,
 * so an empty salt is the same key); `info` a string is read as UTF-8, as Node's `hkdfSync` reads it.
 */
export function hkdfSha256(input: Uint8Array, length: number, salt: Uint8Array, info: Uint8Array | string): Buffer {
  if (!Number.isInteger(length) || length < 0 || length > 255 * DIGEST_BYTES)
    throw new RangeError(`HKDF output length ${length} is not between 0 and ${255 * DIGEST_BYTES}`)
  const infoBytes = typeof info === 'string' ? Buffer.from(info, 'utf8') : info
  return Buffer.concat(hkdfBlocks(input, salt, infoBytes, Math.ceil(length / DIGEST_BYTES))).subarray(0, length)
}

/** HKDF's extract, then `count` 32-byte blocks of its expand: T(i) = HMAC(PRK, T(i-1) | info | i). */
function hkdfBlocks(input: Uint8Array, salt: Uint8Array, info: Uint8Array, count: number): Buffer[] {
  const pseudoRandomKey = hmacKey(hmacSha256(salt, input))
  const blocks: Buffer[] = []
  let previous: Uint8Array = EMPTY
  for (let block = 1; block <= count; block++) {
    previous = hmacWith(pseudoRandomKey, previous, info, COUNTER[block]!)
    blocks.push(previous as Buffer)
  }
  return blocks
}

const EMPTY = new Uint8Array(0)
const COUNTER = Array.from({ length: 256 }, (_, i) => Uint8Array.of(i))

// libsignal's own checks, with its messages: it takes Buffers only.
function assertBuffer(value: unknown): Buffer {
  if (!(value instanceof Buffer)) throw TypeError(`Expected Buffer instead of: ${(value as object).constructor.name}`)
  return value
}

export function calculateMAC(key: Buffer, data: Buffer): Buffer {
  assertBuffer(key)
  assertBuffer(data)
  return hmacSha256(key, data)
}

/** libsignal's HKDF: up to three 32-byte blocks, a 32-byte salt. */
export function deriveSecrets(input: Buffer, salt: Buffer, info: Buffer, chunks?: number): Buffer[] {
  assertBuffer(input)
  assertBuffer(salt)
  assertBuffer(info)
  if (salt.byteLength !== 32) throw new Error('Got salt of incorrect length')
  const count = chunks || 3
  if (!(count >= 1 && count <= 3)) throw CHUNKS_OUT_OF_RANGE()
  return hkdfBlocks(input, salt, info, count)
}

// libsignal's `assert(chunks >= 1 && chunks <= 3)`, whose message quotes its own line
const CHUNKS_OUT_OF_RANGE = () =>
  new AssertionError({
    message: 'The expression evaluated to a falsy value:\n\n  assert(chunks >= 1 && chunks <= 3)\n',
    actual: false,
    expected: true,
    operator: '==',
  })

export function verifyMAC(data: Buffer, key: Buffer, mac: Buffer, length: number): void {
  const calculated = calculateMAC(key, data).subarray(0, length)
  if (mac.length !== length || calculated.length !== length) throw new Error('Bad MAC length')
  // libsignal compares with `equals`; the same answer in time that does not depend on where the bytes differ
  if (!timingSafeEqual(mac, calculated)) throw new Error('Bad MAC')
}

const fromBaileys = createRequire(createRequire(import.meta.url).resolve('@whiskeysockets/baileys/package.json'))
const INSTALLED = Symbol.for('gateway.signal-hmac')

/** Idempotent: replaces the three HMAC functions on the libsignal crypto module Baileys loads. */
export function installSignalHmac(): void {
  const crypto = fromBaileys('libsignal/src/crypto.js') as Record<PropertyKey, unknown>
  if (crypto[INSTALLED]) return
  Object.assign(crypto, { calculateMAC, deriveSecrets, verifyMAC })
  crypto[INSTALLED] = true
}
