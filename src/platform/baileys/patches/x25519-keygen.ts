/**
 * @module platform/baileys/patches/x25519-keygen
 * libsignal's curve key pairs (`curve.generateKeyPair`) from Node's X25519 generator with one JWK export, instead of
 * two DER exports, in the thread that runs the platform client.
 *
 * Why: a pairing makes ~812 key pairs (the pre-keys Baileys uploads, besides the signed pre-key and the noise and
 * identity keys), and libsignal asks Node for each as a DER public key plus a DER private key: 80 µs a pair on Node
 * 24 here, of which the key itself (one X25519 base-point multiplication, `generateKeyPairSync` returning
 * KeyObjects) is ~38 µs and the two DER encodings the rest. `generateKeyPairSync` was half of the gateway's CPU
 * during pairing (bench:pairing). A private key exported as a JWK carries both halves (`d` and `x`, the
 * raw 32 bytes of each in base64url): 45 µs a pair.
 *
 * The result is what libsignal's own function returns: `pubKey` the 33-byte key with libsignal's type byte (5) in
 * front, `privKey` the 32 raw bytes, each in a buffer of its own (a long-lived key pins no shared slab). Ratchet
 * steps (`session_cipher.js`) and new sessions (`session_builder.js`) call the same function, so they get it too.
 *
 * How: the function on libsignal's `src/curve.js` exports (the copy Baileys loads) is replaced. Baileys imports that
 * CommonJS module as an ES module namespace, whose named exports are read once, when Baileys is first imported: the
 * inventory installs this before that, like every other patch. libsignal's `keyhelper.generateIdentityKeyPair` kept
 * the original when libsignal loaded; Baileys does not call it. No node_modules edit.
 */
import { generateKeyPairSync, type JsonWebKey } from 'node:crypto'
import { createRequire } from 'node:module'

const fromBaileys = createRequire(createRequire(import.meta.url).resolve('@whiskeysockets/baileys/package.json'))
const INSTALLED = Symbol.for('gateway.x25519-keygen')
/** libsignal's type byte of a curve25519 ("DJB") public key, in front of its 32 bytes. */
const DJB_KEY_TYPE = 5
const KEY_BYTES = 32

export interface SignalKeyPair {
  pubKey: Buffer
  privKey: Buffer
}

/** A fresh X25519 key pair in libsignal's shapes: a 33-byte typed public key and the 32-byte private key. */
export function generateSignalKeyPair(): SignalKeyPair {
  // with only the private key's encoding given, the public key comes back as a KeyObject, unused: the JWK has both
  const { privateKey } = generateKeyPairSync('x25519', {
    privateKeyEncoding: { format: 'jwk' },
  } as never) as unknown as { privateKey: JsonWebKey }
  const pubKey = Buffer.allocUnsafeSlow(1 + KEY_BYTES)
  pubKey[0] = DJB_KEY_TYPE
  const privKey = Buffer.allocUnsafeSlow(KEY_BYTES)
  const written = pubKey.write(privateKey.x ?? '', 1, 'base64url') + privKey.write(privateKey.d ?? '', 'base64url')
  if (written !== 2 * KEY_BYTES) throw new Error('X25519 key pair of an unexpected size')
  return { pubKey, privKey }
}

/** Idempotent: replaces `generateKeyPair` on the curve module Baileys loads (before Baileys is first imported). */
export function installX25519Keygen(): void {
  const curve = fromBaileys('libsignal/src/curve.js') as Record<PropertyKey, unknown>
  if (curve[INSTALLED]) return
  curve.generateKeyPair = generateSignalKeyPair
  curve[INSTALLED] = true
}
