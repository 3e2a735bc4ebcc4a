/**
 * The sandbox phone's link-code crypto (src/sandbox/link-code-crypto.ts, Node's own PBKDF2, AES and HKDF) against
 * Baileys' companion side (its derivePairingCodeKey, aesEncryptCTR, aesEncryptGCM and wasm hkdf): what one side
 * wraps or seals the other opens, the ADV secrets agree, and a wrong code is caught where the protocol catches it.
 */
import { randomBytes } from 'node:crypto'
import { aesDecryptCTR, aesEncryptCTR, aesEncryptGCM, Curve, derivePairingCodeKey, hkdf } from '@whiskeysockets/baileys'
import { describe, expect, it } from 'vitest'
import {
  advSecretOf,
  normaliseLinkCode,
  openKeyBundle,
  unwrapKey,
  wrapKey,
} from '../../../src/sandbox/link-code-crypto.js'

/** What Baileys' requestPairingCode sends: salt ‖ iv ‖ AES-CTR(PBKDF2(code, salt), pub). */
async function baileysWrap(code: string, publicKey: Uint8Array): Promise<Buffer> {
  const salt = randomBytes(32)
  const iv = randomBytes(16)
  return Buffer.concat([salt, iv, aesEncryptCTR(publicKey, await derivePairingCodeKey(code, salt), iv)])
}

/** Baileys' companion_finish bundle, as messages-recv.js seals it. */
function baileysBundle(agreement: Buffer, companionIdentity: Buffer, primaryIdentity: Buffer, random: Buffer) {
  const salt = randomBytes(32)
  const key = hkdf(agreement, 32, { salt, info: 'link_code_pairing_key_bundle_encryption_key' })
  const iv = randomBytes(12)
  const sealed = aesEncryptGCM(Buffer.concat([companionIdentity, primaryIdentity, random]), key, iv, Buffer.alloc(0))
  return Buffer.concat([salt, iv, sealed])
}

describe('link-code crypto (the phone) against Baileys (the companion)', () => {
  it("unwraps the companion's key with the right code, and wraps its own so Baileys' derivation opens it", async () => {
    const companion = Curve.generateKeyPair()
    const wrapped = await baileysWrap('ABCD2345', companion.public)
    expect(wrapped).toHaveLength(80)
    expect(await unwrapKey('ABCD2345', wrapped)).toEqual(Buffer.from(companion.public))
    expect(await unwrapKey('ABCD2346', wrapped)).not.toEqual(Buffer.from(companion.public)) // garbage, no error

    const primary = Curve.generateKeyPair()
    const ours = await wrapKey('ABCD2345', Buffer.from(primary.public))
    const key = await derivePairingCodeKey('ABCD2345', ours.subarray(0, 32))
    expect(aesDecryptCTR(ours.subarray(48), key, ours.subarray(32, 48))).toEqual(Buffer.from(primary.public))
  })

  it('opens the key bundle with the agreed key and derives the ADV secret Baileys derives', () => {
    const companionEphemeral = Curve.generateKeyPair()
    const primaryEphemeral = Curve.generateKeyPair()
    const companionIdentity = Curve.generateKeyPair()
    const primaryIdentity = Curve.generateKeyPair()
    const random = randomBytes(32)
    const companionSide = Curve.sharedKey(companionEphemeral.private, primaryEphemeral.public)
    const phoneSide = Curve.sharedKey(primaryEphemeral.private, companionEphemeral.public)
    const sealed = baileysBundle(
      companionSide,
      Buffer.from(companionIdentity.public),
      Buffer.from(primaryIdentity.public),
      random,
    )
    const bundle = openKeyBundle(phoneSide, sealed)
    expect(bundle?.companionIdentity).toEqual(Buffer.from(companionIdentity.public))
    expect(bundle?.primaryIdentity).toEqual(Buffer.from(primaryIdentity.public))
    expect(bundle?.random).toEqual(random)

    const identityAgreement = Curve.sharedKey(primaryIdentity.private, companionIdentity.public)
    const baileysAdv = hkdf(
      Buffer.concat([companionSide, Curve.sharedKey(companionIdentity.private, primaryIdentity.public), random]),
      32,
      { info: 'adv_secret' },
    )
    expect(advSecretOf(phoneSide, identityAgreement, random)).toEqual(Buffer.from(baileysAdv))
  })

  it('a bundle sealed under another agreement (a wrong code) does not open', () => {
    const sealed = baileysBundle(randomBytes(32), randomBytes(32), randomBytes(32), randomBytes(32))
    expect(openKeyBundle(randomBytes(32), sealed)).toBeUndefined()
    expect(openKeyBundle(randomBytes(32), sealed.subarray(0, 40))).toBeUndefined()
  })

  it('reads a code as a phone user types it, and refuses what cannot be one', () => {
    expect(normaliseLinkCode('abcd-efgh')).toBe('ABCDEFGH')
    expect(normaliseLinkCode(' ABCD EFGH ')).toBe('ABCDEFGH')
    expect(normaliseLinkCode('ABCD-EFG')).toBeUndefined()
    expect(normaliseLinkCode('ABCD-EFGO')).toBeUndefined() // O is not in the alphabet (nor 0, I, U)
    expect(normaliseLinkCode('ABCD-EFG0')).toBeUndefined()
  })
})
