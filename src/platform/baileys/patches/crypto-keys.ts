/**
 * @module platform/baileys/patches/crypto-keys
 * Hands Node's cipher and HMAC constructors a secret `KeyObject` instead of a raw key buffer, in the thread that
 * runs the platform client.
 *
 * Why: Baileys (every frame of the noise socket: AES-GCM; media and app-state keys) and libsignal (every message:
 * AES-CBC, HMAC for the MAC and for each HKDF step of the ratchet) pass raw key buffers to `createCipheriv`,
 * `createDecipheriv` and `createHmac`. For a buffer key, Node 24's `prepareSecretKey` first asks "is it a
 * KeyObject? a CryptoKey?" by reading a private field inside `try`, and each "no" is a thrown and caught TypeError,
 * stack trace included: an HMAC over a short message cost ~54 µs with a buffer key against ~8 µs with a KeyObject
 * (AES-GCM ~38 against ~11), ~15 % of a shard's CPU per sent message (measured). `createSecretKey` takes the buffer
 * path that does not ask, so a buffer key is turned into a KeyObject first and the constructor gets that: the same
 * bytes, the same algorithm checks, the same errors for a key of the wrong size, no thrown exceptions.
 *
 * How: the three functions of `node:crypto` are wrapped (only a non-empty `Uint8Array` key is converted; strings,
 * KeyObjects, CryptoKeys and empty keys pass as they were) and `syncBuiltinESMExports()` makes the ES-module
 * named imports (`import { createHmac } from 'crypto'`, Baileys) see the wrappers too. No node_modules edit;
 * installed once per thread, before the first socket opens (socket-config.ts).
 */
import crypto, { type KeyObject } from 'node:crypto'
import { syncBuiltinESMExports } from 'node:module'

const INSTALLED = Symbol.for('gateway.crypto-keys')

/** A non-empty byte-array key as a secret KeyObject; anything else unchanged. */
export function asSecretKey<T>(key: T): T | KeyObject {
  return key instanceof Uint8Array && key.byteLength > 0 ? crypto.createSecretKey(key) : key
}

/** Idempotent: wraps `createCipheriv`, `createDecipheriv` and `createHmac` of this thread's `node:crypto`. */
export function installCryptoKeyObjects(): void {
  const target = crypto as unknown as Record<PropertyKey, unknown>
  if (target[INSTALLED]) return
  const { createCipheriv, createDecipheriv, createHmac } = crypto
  const wrapped = {
    createCipheriv: (algorithm: string, key: unknown, ...rest: unknown[]) =>
      (createCipheriv as (...a: unknown[]) => unknown)(algorithm, asSecretKey(key), ...rest),
    createDecipheriv: (algorithm: string, key: unknown, ...rest: unknown[]) =>
      (createDecipheriv as (...a: unknown[]) => unknown)(algorithm, asSecretKey(key), ...rest),
    createHmac: (algorithm: string, key: unknown, ...rest: unknown[]) =>
      (createHmac as (...a: unknown[]) => unknown)(algorithm, asSecretKey(key), ...rest),
  }
  Object.assign(target, wrapped)
  target[INSTALLED] = true
  syncBuiltinESMExports()
}
