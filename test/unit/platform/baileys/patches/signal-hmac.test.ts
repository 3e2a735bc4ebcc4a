/**
 * HMAC-SHA-256 by two one-shot hashes (src/platform/baileys/patches/signal-hmac.ts): each function gives the bytes
 * and the errors of what it replaces (Node's `createHmac` and `hkdfSync`, libsignal's own `calculateMAC`,
 * `deriveSecrets` and `verifyMAC`, kept from before the patch), on random inputs and on the edges (an empty key or
 * message, a key longer than SHA-256's 64-byte block); once installed, libsignal's session code uses it, and two
 * libsignal sessions still talk.
 */
import { createHmac, hkdfSync, randomBytes } from 'node:crypto'
import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
import {
  calculateMAC,
  deriveSecrets,
  hkdfSha256,
  hmacSha256,
  installSignalHmac,
  verifyMAC,
} from '../../../../../src/platform/baileys/patches/signal-hmac.js'
import { inFreshProcess } from '../../../../support/fresh-process.js'

const fromBaileys = createRequire(createRequire(import.meta.url).resolve('@whiskeysockets/baileys/package.json'))
interface SignalCrypto {
  calculateMAC(key: Buffer, data: Buffer): Buffer
  deriveSecrets(input: Buffer, salt: Buffer, info: Buffer, chunks?: number): Buffer[]
  verifyMAC(data: Buffer, key: Buffer, mac: Buffer, length: number): void
}
const signalCrypto = fromBaileys('libsignal/src/crypto.js') as SignalCrypto
/** libsignal's own functions from a fresh copy of its module, whatever this process installed on the shared one. */
function libsignalsOwn(): SignalCrypto {
  const file = fromBaileys.resolve('libsignal/src/crypto.js')
  const shared = fromBaileys.cache[file]
  delete fromBaileys.cache[file]
  try {
    return fromBaileys(file) as SignalCrypto
  } finally {
    fromBaileys.cache[file] = shared
  }
}
const libsignal = libsignalsOwn()
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex')
const thrown = (f: () => unknown): string => {
  try {
    f()
  } catch (err) {
    return `${(err as Error).name}: ${(err as Error).message}`
  }
  return 'nothing thrown'
}

describe('HMAC-SHA-256 by one-shot hashes', () => {
  it("gives Node's createHmac bytes for keys of 0-200 bytes (longer than the 64-byte block is hashed first) and messages of 0-300", () => {
    for (let i = 0; i < 300; i++) {
      const key = randomBytes(i % 201)
      const data = randomBytes((i * 7) % 301)
      expect(hex(hmacSha256(key, data)), `key ${key.length}, data ${data.length}`).toBe(
        hex(createHmac('sha256', key).update(data).digest()),
      )
    }
  })

  it("gives Node's hkdfSync bytes for lengths 1-8160, with and without salt and info", () => {
    for (let i = 0; i < 120; i++) {
      const input = randomBytes(i % 70)
      const length = i === 0 ? 255 * 32 : 1 + ((i * 37) % 300)
      for (const [salt, info] of [
        [randomBytes(1 + (i % 80)), `info ${i} ✓`],
        [new Uint8Array(0), ''],
        [randomBytes(32), randomBytes(i % 50)],
      ] as const)
        expect(hex(hkdfSha256(input, length, salt, info)), `length ${length}`).toBe(
          hex(Buffer.from(hkdfSync('sha256', input, salt, info, length))),
        )
    }
    expect(thrown(() => hkdfSha256(randomBytes(32), 255 * 32 + 1, new Uint8Array(0), ''))).toMatch(/RangeError/)
  })

  it("libsignal's calculateMAC, deriveSecrets and verifyMAC: the same results and the same errors", () => {
    expect(libsignal.calculateMAC).not.toBe(calculateMAC)
    expect(libsignal.deriveSecrets).not.toBe(deriveSecrets)
    expect(libsignal.verifyMAC).not.toBe(verifyMAC)
    for (let i = 0; i < 100; i++) {
      const key = randomBytes(i % 90)
      const data = randomBytes((i * 11) % 200)
      expect(hex(calculateMAC(key, data))).toBe(hex(libsignal.calculateMAC(key, data)))
      const input = randomBytes(32 + (i % 40))
      const salt = randomBytes(32)
      const info = Buffer.from(`WhisperMessageKeys ${i}`)
      for (const chunks of [undefined, 1, 2, 3])
        expect(deriveSecrets(input, salt, info, chunks).map(hex)).toEqual(
          libsignal.deriveSecrets(input, salt, info, chunks).map(hex),
        )
      const mac = libsignal.calculateMAC(key, data).subarray(0, 8)
      expect(() => verifyMAC(data, key, Buffer.from(mac), 8)).not.toThrow()
    }
    const key = randomBytes(32)
    const data = randomBytes(40)
    const goodMac = libsignal.calculateMAC(key, data).subarray(0, 8)
    const badMac = Buffer.from(goodMac)
    badMac[3] = badMac[3]! ^ 1
    const salt = randomBytes(32)
    const cases: [string, () => unknown, () => unknown][] = [
      ['a wrong MAC', () => verifyMAC(data, key, badMac, 8), () => libsignal.verifyMAC(data, key, badMac, 8)],
      [
        'a MAC of another length',
        () => verifyMAC(data, key, goodMac, 10),
        () => libsignal.verifyMAC(data, key, goodMac, 10),
      ],
      ['a string key', () => calculateMAC('k' as never, data), () => libsignal.calculateMAC('k' as never, data)],
      [
        'a Uint8Array message',
        () => calculateMAC(key, new Uint8Array(3) as never),
        () => libsignal.calculateMAC(key, new Uint8Array(3) as never),
      ],
      [
        'a 16-byte salt',
        () => deriveSecrets(data, randomBytes(16), data),
        () => libsignal.deriveSecrets(data, randomBytes(16), data),
      ],
      ['4 chunks', () => deriveSecrets(data, salt, data, 4), () => libsignal.deriveSecrets(data, salt, data, 4)],
    ]
    for (const [what, ours, theirs] of cases) {
      const expected = thrown(theirs)
      expect(expected, what).not.toBe('nothing thrown')
      expect(thrown(ours), what).toBe(expected)
    }
  })

  it("once installed, libsignal's sessions use it: the functions on its crypto module are ours, and a message still decrypts", () => {
    const result = inFreshProcess(`
      import { createRequire } from 'node:module'
      import { installSignalHmac, calculateMAC } from './src/platform/baileys/patches/signal-hmac.ts'
      const fromBaileys = createRequire(createRequire(import.meta.url).resolve('@whiskeysockets/baileys/package.json'))
      const signalCrypto = fromBaileys('libsignal/src/crypto.js')
      const before = signalCrypto.calculateMAC === calculateMAC
      installSignalHmac()
      installSignalHmac()
      const after = signalCrypto.calculateMAC === calculateMAC
      let ours = 0
      const wrapped = signalCrypto.calculateMAC
      signalCrypto.calculateMAC = (...a) => { ours++; return wrapped(...a) }
      const signal = fromBaileys('libsignal')
      const { keyhelper, ProtocolAddress, SessionBuilder, SessionCipher } = signal
      const store = () => {
        const data = { identity: keyhelper.generateIdentityKeyPair(), id: keyhelper.generateRegistrationId(), sessions: {}, preKeys: {}, signed: {} }
        return { data,
          getOurIdentity: async () => data.identity, getOurRegistrationId: async () => data.id,
          isTrustedIdentity: async () => true, loadSession: async (a) => data.sessions[a], storeSession: async (a, r) => { data.sessions[a] = r },
          loadPreKey: async (id) => data.preKeys[id], removePreKey: async (id) => { delete data.preKeys[id] },
          loadSignedPreKey: async (id) => data.signed[id] }
      }
      const alice = store(), bob = store()
      const preKey = keyhelper.generatePreKey(7), signedPreKey = keyhelper.generateSignedPreKey(bob.data.identity, 9)
      bob.data.preKeys[7] = preKey.keyPair; bob.data.signed[9] = signedPreKey.keyPair
      const bobAddress = new ProtocolAddress('bob', 1), aliceAddress = new ProtocolAddress('alice', 1)
      await new SessionBuilder(alice, bobAddress).initOutgoing({ identityKey: bob.data.identity.pubKey, registrationId: bob.data.id,
        preKey: { keyId: 7, publicKey: preKey.keyPair.pubKey }, signedPreKey: { keyId: 9, publicKey: signedPreKey.keyPair.pubKey, signature: signedPreKey.signature } })
      const texts = []
      for (const text of ['one', 'two']) {
        const sent = await new SessionCipher(alice, bobAddress).encrypt(Buffer.from(text))
        const plain = await new SessionCipher(bob, aliceAddress).decryptPreKeyWhisperMessage(Buffer.from(sent.body, 'binary'))
        texts.push(plain.toString())
      }
      console.log(JSON.stringify({ before, after, ours: ours > 0, texts }))
    `) as { before: boolean; after: boolean; ours: boolean; texts: string[] }
    expect(result).toEqual({ before: false, after: true, ours: true, texts: ['one', 'two'] })
  })

  it('is idempotent in this process too', () => {
    installSignalHmac()
    installSignalHmac()
    expect(signalCrypto.calculateMAC).toBe(calculateMAC)
    expect(signalCrypto.deriveSecrets).toBe(deriveSecrets)
    expect(signalCrypto.verifyMAC).toBe(verifyMAC)
  })
})
