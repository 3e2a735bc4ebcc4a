/**
 * The gateway's restored signature check (src/platform/baileys/patches/signature-check.ts): the verify itself, and that swapping
 * it on Baileys' exported `Curve` reaches Baileys' own pairing code (validate-connection), which rc14 leaves
 * unchecked. The Noise chain check is proven end to end in test/system/pairing/signature.test.ts.
 */
import { randomBytes } from 'node:crypto'
import { configureSuccessfulPairing, Curve, initAuthCreds, proto, type BinaryNode } from '@whiskeysockets/baileys'
import { verifySignature } from 'libsignal/src/curve.js'
import { afterEach, describe, expect, it } from 'vitest'
import {
  checkedVerify,
  setPlatformSignatureCheck,
} from '../../../../../src/platform/baileys/patches/signature-check.js'
import { newKeyPair } from '../../../../../src/sandbox/certs.js'
import { advDeviceIdentity } from '../../../../../src/sandbox/pairing.js'

const signed = (message: Buffer) => {
  const keys = newKeyPair()
  return { keys, message, signature: Buffer.from(Curve.sign(keys.private, message)) }
}
const flipBit = (buf: Buffer, index: number) => {
  const copy = Buffer.from(buf)
  copy[index]! ^= 0x01
  return copy
}

describe('checkedVerify', () => {
  const { keys, message, signature } = signed(randomBytes(200))

  it('accepts a good signature, with the 32-byte key or libsignal 33-byte prefixed key', () => {
    expect(checkedVerify(keys.public, message, signature)).toBe(true)
    expect(checkedVerify(Buffer.concat([Buffer.from([5]), keys.public]), message, signature)).toBe(true)
  })

  it('rejects a flipped bit in the signature or the message', () => {
    for (const i of [0, 31, 32, 62]) expect(checkedVerify(keys.public, message, flipBit(signature, i))).toBe(false)
    expect(checkedVerify(keys.public, flipBit(message, 17), signature)).toBe(false)
  })

  it('rejects a signature made by another key', () => {
    expect(checkedVerify(newKeyPair().public, message, signature)).toBe(false)
    const other = signed(message)
    expect(checkedVerify(keys.public, message, other.signature)).toBe(false)
  })

  it('answers false, without throwing, for a truncated signature or key', () => {
    expect(checkedVerify(keys.public, message, signature.subarray(0, 63))).toBe(false)
    expect(checkedVerify(keys.public, message, Buffer.alloc(0))).toBe(false)
    expect(checkedVerify(keys.public.subarray(0, 31), message, signature)).toBe(false)
    expect(checkedVerify(Buffer.concat([Buffer.from([7]), keys.public]), message, signature)).toBe(false)
  })

  it("agrees with libsignal's own (pure-JS) verify on good and bad signatures", () => {
    for (let i = 0; i < 6; i++) {
      const s = signed(randomBytes(32 + i * 40))
      const bad = flipBit(s.signature, i * 9)
      const prefixed = Buffer.concat([Buffer.from([5]), s.keys.public])
      expect(checkedVerify(s.keys.public, s.message, s.signature)).toBe(
        verifySignature(prefixed, s.message, s.signature),
      )
      expect(checkedVerify(s.keys.public, s.message, bad)).toBe(verifySignature(prefixed, s.message, bad))
    }
  })
})

/** A pair-success stanza as the sandbox phone sends it; `signingKey` other than the phone's = wrong signature. */
function pairSuccess(companionIdentity: Buffer, advSecret: Buffer, signingKey?: Buffer): BinaryNode {
  const details = Buffer.from(
    proto.ADVDeviceIdentity.encode({ rawId: 1, timestamp: 1, keyIndex: 1, deviceType: 0 }).finish(),
  )
  const content = advDeviceIdentity({
    details,
    companionIdentity,
    phoneIdentity: newKeyPair(),
    advSecret,
    ...(signingKey ? { signingKey } : {}),
  })
  return {
    tag: 'iq',
    attrs: { id: 'pair-1', type: 'set', from: 's.whatsapp.net' },
    content: [
      {
        tag: 'pair-success',
        attrs: {},
        content: [
          { tag: 'device-identity', attrs: {}, content },
          { tag: 'device', attrs: { jid: '15550000001:1@s.whatsapp.net', lid: '100000000000001:1@lid' } },
        ],
      },
    ],
  }
}

describe('Baileys pairing with the check installed', () => {
  afterEach(() => setPlatformSignatureCheck(true))
  const creds = initAuthCreds()
  const advSecret = Buffer.from(creds.advSecretKey, 'base64')

  it('pairs when the phone signed the account signature with its own identity', () => {
    setPlatformSignatureCheck(true)
    const { creds: update } = configureSuccessfulPairing(
      pairSuccess(Buffer.from(creds.signedIdentityKey.public), advSecret),
      creds,
    )
    expect(update.me?.id).toBe('15550000001:1@s.whatsapp.net')
  })

  it('refuses an account signature made with another key', () => {
    setPlatformSignatureCheck(true)
    const forged = pairSuccess(Buffer.from(creds.signedIdentityKey.public), advSecret, newKeyPair().private)
    expect(() => configureSuccessfulPairing(forged, creds)).toThrow('Failed to verify account signature')
  })

  it('refuses a signature over another companion identity (a replayed pair-success)', () => {
    setPlatformSignatureCheck(true)
    const replayed = pairSuccess(newKeyPair().public, advSecret)
    expect(() => configureSuccessfulPairing(replayed, creds)).toThrow('Failed to verify account signature')
  })

  it('with the check off (VERIFY_PLATFORM_SIGNATURES=false), Baileys rc14 accepts the forged signature', () => {
    setPlatformSignatureCheck(false)
    const forged = pairSuccess(Buffer.from(creds.signedIdentityKey.public), advSecret, newKeyPair().private)
    expect(() => configureSuccessfulPairing(forged, creds)).not.toThrow()
  })
})
