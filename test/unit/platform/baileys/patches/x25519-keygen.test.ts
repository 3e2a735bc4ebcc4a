/**
 * libsignal's curve key pairs from one JWK export (src/platform/baileys/patches/x25519-keygen.ts): each pair is a
 * working X25519 pair in libsignal's shapes (its public key derived again from the private key by libsignal's own
 * curve25519-js code, agreement both ways, signatures), and once installed before Baileys loads, the key pairs
 * Baileys makes (pre-keys, identity, noise) come from it.
 */
import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
import { generateSignalKeyPair } from '../../../../../src/platform/baileys/patches/x25519-keygen.js'
import { inFreshProcess } from '../../../../support/fresh-process.js'

const fromBaileys = createRequire(createRequire(import.meta.url).resolve('@whiskeysockets/baileys/package.json'))
interface SignalPair {
  pubKey: Buffer
  privKey: Buffer
}
const curve = fromBaileys('libsignal/src/curve.js') as {
  generateKeyPair(): SignalPair
  getPublicFromPrivateKey(privKey: Buffer): Buffer
  calculateAgreement(pubKey: Buffer, privKey: Buffer): Buffer
  calculateSignature(privKey: Buffer, message: Buffer): Buffer
  verifySignature(pubKey: Buffer, message: Buffer, signature: Buffer): boolean
}

describe('X25519 key pairs for libsignal', () => {
  it("makes pairs libsignal's own code accepts: typed 33-byte public key, the private key's own public half", () => {
    const pair = generateSignalKeyPair()
    expect(pair.pubKey).toHaveLength(33)
    expect(pair.pubKey[0]).toBe(5)
    expect(pair.privKey).toHaveLength(32)
    // curve25519-js derives the public key from the private one independently of OpenSSL
    expect(curve.getPublicFromPrivateKey(pair.privKey).equals(pair.pubKey)).toBe(true)
    // each key in its own memory: a long-lived key keeps no shared slab alive
    expect(pair.pubKey.buffer.byteLength).toBe(33)
    expect(pair.privKey.buffer.byteLength).toBe(32)
  })

  it("agrees with a pair from libsignal's own generator both ways, and signs what its public key verifies", () => {
    const ours = generateSignalKeyPair()
    const theirs = curve.generateKeyPair()
    const one = curve.calculateAgreement(theirs.pubKey, ours.privKey)
    expect(one.equals(curve.calculateAgreement(ours.pubKey, theirs.privKey))).toBe(true)
    const message = Buffer.from('signed pre-key')
    const signature = curve.calculateSignature(ours.privKey, message)
    expect(curve.verifySignature(ours.pubKey, message, signature)).toBe(true)
    expect(curve.verifySignature(theirs.pubKey, message, signature)).toBe(false)
  })

  it('never repeats a key', () => {
    const keys = new Set(Array.from({ length: 200 }, () => generateSignalKeyPair().privKey.toString('hex')))
    expect(keys.size).toBe(200)
  })

  it("once installed before Baileys loads, Baileys' key pairs come from it (one JWK export, no DER)", () => {
    const r = inFreshProcess(`
import crypto from 'node:crypto'
import { syncBuiltinESMExports, createRequire } from 'node:module'
const asked = []
const generate = crypto.generateKeyPairSync
crypto.generateKeyPairSync = (type, options) => (asked.push({ type, options }), generate(type, options))
syncBuiltinESMExports()
const { installPlatformPatches } = await import('./src/platform/baileys/patches/inventory.ts')
installPlatformPatches()
const { Curve } = await import('@whiskeysockets/baileys')
const pair = Curve.generateKeyPair()
const fromBaileys = createRequire(createRequire(import.meta.url).resolve('@whiskeysockets/baileys/package.json'))
const curve = fromBaileys('libsignal/src/curve.js')
const derived = curve.getPublicFromPrivateKey(pair.private).subarray(1)
console.log(JSON.stringify({ asked, publicBytes: pair.public.length, matches: derived.equals(pair.public) }))
`) as { asked: unknown[]; publicBytes: number; matches: boolean }
    expect(r.asked).toEqual([{ type: 'x25519', options: { privateKeyEncoding: { format: 'jwk' } } }])
    expect(r.publicBytes).toBe(32)
    expect(r.matches).toBe(true)
  })
})
