/**
 * Baileys and libsignal hand Node raw key buffers, which Node 24 checks by throwing and catching two TypeErrors per
 * call; the patch gives the constructors a KeyObject instead (src/platform/baileys/patches/crypto-keys.ts). These
 * tests hold that the bytes and the errors are the same as before, and that both the ES-module named imports
 * (Baileys) and the CommonJS module object (libsignal) go through it.
 */
import crypto, { KeyObject } from 'node:crypto'
import { createRequire } from 'node:module'
import { aesDecryptGCM, aesEncryptGCM, hmacSign } from '@whiskeysockets/baileys'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { asSecretKey, installCryptoKeyObjects } from '../../../../../src/platform/baileys/patches/crypto-keys.js'

// the copy of libsignal Baileys loads (as the patch's other users do)
const fromBaileys = createRequire(createRequire(import.meta.url).resolve('@whiskeysockets/baileys/package.json'))
const signalCrypto = fromBaileys('libsignal/src/crypto.js') as {
  encrypt(key: Buffer, data: Buffer, iv: Buffer): Buffer
  decrypt(key: Buffer, data: Buffer, iv: Buffer): Buffer
  calculateMAC(key: Buffer, data: Buffer): Buffer
  deriveSecrets(input: Buffer, salt: Buffer, info: Buffer, chunks?: number): Buffer[]
}

const key = Buffer.alloc(32, 7)
const iv12 = Buffer.alloc(12, 1)
const iv16 = Buffer.alloc(16, 2)
const data = Buffer.from('the same bytes with a KeyObject as with a buffer')

/** What each call gave with raw buffer keys (computed before the patch is installed in this file). */
let before: { hmac: Buffer; gcm: Buffer; cbc: Buffer; mac: Buffer; secrets: Buffer[] }

beforeAll(() => {
  before = {
    hmac: hmacSign(data, key),
    gcm: aesEncryptGCM(data, key, iv12, Buffer.alloc(0)),
    cbc: signalCrypto.encrypt(key, data, iv16),
    mac: signalCrypto.calculateMAC(key, data),
    secrets: signalCrypto.deriveSecrets(data, Buffer.alloc(32), Buffer.from('info'), 3),
  }
  installCryptoKeyObjects()
})

afterEach(() => {
  vi.restoreAllMocks()
})

describe('crypto-keys patch', () => {
  it('gives the same bytes as raw keys did, through Baileys and libsignal', () => {
    expect(hmacSign(data, key)).toEqual(before.hmac)
    const sealed = aesEncryptGCM(data, key, iv12, Buffer.alloc(0))
    expect(sealed).toEqual(before.gcm)
    expect(aesDecryptGCM(sealed, key, iv12, Buffer.alloc(0))).toEqual(data)
    const cbc = signalCrypto.encrypt(key, data, iv16)
    expect(cbc).toEqual(before.cbc)
    expect(signalCrypto.decrypt(key, cbc, iv16)).toEqual(data)
    expect(signalCrypto.calculateMAC(key, data)).toEqual(before.mac)
    expect(signalCrypto.deriveSecrets(data, Buffer.alloc(32), Buffer.from('info'), 3)).toEqual(before.secrets)
  })

  it("reaches Baileys' ES-module named imports and libsignal's require('crypto')", () => {
    const made = vi.spyOn(crypto, 'createSecretKey')
    hmacSign(data, key)
    expect(made).toHaveBeenCalledTimes(1)
    signalCrypto.calculateMAC(key, data)
    expect(made).toHaveBeenCalledTimes(2)
  })

  it('is installed once however often it is called', () => {
    installCryptoKeyObjects()
    installCryptoKeyObjects()
    const made = vi.spyOn(crypto, 'createSecretKey')
    crypto.createHmac('sha256', key).update(data).digest()
    expect(made).toHaveBeenCalledTimes(1)
  })

  it('keeps the errors of a bad key, and passes other key kinds unchanged', () => {
    expect(() => crypto.createCipheriv('aes-256-gcm', Buffer.alloc(16), iv12)).toThrow(/key length/i)
    expect(() => crypto.createDecipheriv('aes-256-cbc', Buffer.alloc(31), iv16)).toThrow(/key length/i)
    const empty = Buffer.alloc(0)
    expect(asSecretKey(empty)).toBe(empty)
    expect(asSecretKey('a string key')).toBe('a string key')
    const object = crypto.createSecretKey(key)
    expect(asSecretKey(object)).toBe(object)
    const converted = asSecretKey(key)
    expect(converted).toBeInstanceOf(KeyObject)
    expect((converted as KeyObject).export()).toEqual(key)
    // an empty HMAC key is legal and still works (it is passed as it is)
    expect(crypto.createHmac('sha256', empty).update(data).digest()).toHaveLength(32)
  })
})
