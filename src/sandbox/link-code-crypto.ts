/**
 * @module sandbox/link-code-crypto
 * The phone's half of the key agreement behind pairing by code ("Link with phone number"), as pure functions. The
 * companion shows an 8-character code and never sends it; both sides prove they know it by wrapping their
 * ephemeral X25519 public keys under a key derived from it:
 *
 * - a wrapped key is salt (32) ‖ iv (16) ‖ AES-256-CTR(key, iv, public key (32)), 80 bytes, with
 *   key = PBKDF2-HMAC-SHA256(code, salt, 2^17 iterations, 32 bytes). CTR has no MAC: a wrong code unwraps to 32
 *   bytes of garbage, and nothing fails yet;
 * - the companion answers with a key bundle: salt (32) ‖ iv (12) ‖ AES-256-GCM(key, iv, companion identity (32) ‖
 *   primary identity (32) ‖ random (32)) with its tag, key = HKDF-SHA256(ephemeral agreement, salt,
 *   'link_code_pairing_key_bundle_encryption_key'). With a wrong code the two sides' agreements differ, and the GCM
 *   tag is where the phone finds out ("couldn't link device"); the companion is told nothing;
 * - the ADV secret that pair-success's HMAC is keyed with (the QR carries it; here it is derived) is
 *   HKDF-SHA256(ephemeral agreement ‖ identity agreement ‖ random, no salt, 'adv_secret').
 *
 * Node's own PBKDF2, AES and HKDF, not Baileys' (which uses WebCrypto and a wasm HKDF): the sandbox checks the
 * client, it does not share its code. Sizes and labels as Baileys 7.0.0-rc14 (Socket/socket.js requestPairingCode,
 * Socket/messages-recv.js link_code_companion_reg) and whatsmeow (pair-code.go) have them.
 */
import { createCipheriv, createDecipheriv, hkdfSync, pbkdf2, randomBytes } from 'node:crypto'
import { promisify } from 'node:util'

/** The code's alphabet: Crockford-like base32 without 0, I, O and U (Baileys' bytesToCrockford). */
export const LINK_CODE_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTVWXYZ'
export const LINK_CODE_LENGTH = 8
const PBKDF2_ITERATIONS = 2 << 16
const SALT_BYTES = 32
const CTR_IV_BYTES = 16
const GCM_IV_BYTES = 12
const GCM_TAG_BYTES = 16
const KEY_BYTES = 32
export const WRAPPED_KEY_BYTES = SALT_BYTES + CTR_IV_BYTES + KEY_BYTES
const BUNDLE_INFO = 'link_code_pairing_key_bundle_encryption_key'
const ADV_SECRET_INFO = 'adv_secret'

const pbkdf2Async = promisify(pbkdf2)

/** The code as typed (`abcd-efgh`, `ABCD EFGH`) → its 8 characters, or undefined when it cannot be a code. */
export function normaliseLinkCode(typed: string): string | undefined {
  const code = typed.replace(/[\s-]/g, '').toUpperCase()
  if (code.length !== LINK_CODE_LENGTH) return undefined
  return [...code].every(c => LINK_CODE_ALPHABET.includes(c)) ? code : undefined
}

const codeKey = (code: string, salt: Buffer): Promise<Buffer> =>
  pbkdf2Async(Buffer.from(code, 'utf8'), salt, PBKDF2_ITERATIONS, KEY_BYTES, 'sha256')

const ctr = (key: Buffer, iv: Buffer, data: Buffer): Buffer => {
  const cipher = createCipheriv('aes-256-ctr', key, iv)
  return Buffer.concat([cipher.update(data), cipher.final()])
}

/** An ephemeral public key wrapped under the code (what primary_hello carries). */
export async function wrapKey(code: string, publicKey: Buffer): Promise<Buffer> {
  const salt = randomBytes(SALT_BYTES)
  const iv = randomBytes(CTR_IV_BYTES)
  return Buffer.concat([salt, iv, ctr(await codeKey(code, salt), iv, publicKey)])
}

/** The public key inside a wrapped one; garbage (never an error) when `code` is not the one it was wrapped with. */
export async function unwrapKey(code: string, wrapped: Buffer): Promise<Buffer> {
  if (wrapped.length !== WRAPPED_KEY_BYTES) throw new Error(`a wrapped key is ${WRAPPED_KEY_BYTES} bytes`)
  const salt = wrapped.subarray(0, SALT_BYTES)
  const iv = wrapped.subarray(SALT_BYTES, SALT_BYTES + CTR_IV_BYTES)
  return ctr(await codeKey(code, salt), iv, wrapped.subarray(SALT_BYTES + CTR_IV_BYTES))
}

const hkdf = (input: Buffer, salt: Buffer, info: string): Buffer =>
  Buffer.from(hkdfSync('sha256', input, salt, info, KEY_BYTES))

export interface KeyBundle {
  companionIdentity: Buffer
  primaryIdentity: Buffer
  random: Buffer
}

/** Opens the companion's key bundle with the phone's ephemeral agreement; undefined when its tag does not check out. */
export function openKeyBundle(ephemeralAgreement: Buffer, wrapped: Buffer): KeyBundle | undefined {
  if (wrapped.length < SALT_BYTES + GCM_IV_BYTES + GCM_TAG_BYTES + 3 * KEY_BYTES) return undefined
  const salt = wrapped.subarray(0, SALT_BYTES)
  const iv = wrapped.subarray(SALT_BYTES, SALT_BYTES + GCM_IV_BYTES)
  const sealed = wrapped.subarray(SALT_BYTES + GCM_IV_BYTES)
  const decipher = createDecipheriv('aes-256-gcm', hkdf(ephemeralAgreement, salt, BUNDLE_INFO), iv)
  decipher.setAuthTag(sealed.subarray(sealed.length - GCM_TAG_BYTES))
  let plain: Buffer
  try {
    plain = Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - GCM_TAG_BYTES)), decipher.final()])
  } catch {
    return undefined // the tag: the two sides did not agree on a key, i.e. the code typed was not the one shown
  }
  if (plain.length !== 3 * KEY_BYTES) return undefined
  return {
    companionIdentity: plain.subarray(0, KEY_BYTES),
    primaryIdentity: plain.subarray(KEY_BYTES, 2 * KEY_BYTES),
    random: plain.subarray(2 * KEY_BYTES),
  }
}

/** The ADV secret both sides derive once the bundle is open (it keys pair-success's HMAC, as the QR's does). */
export const advSecretOf = (ephemeralAgreement: Buffer, identityAgreement: Buffer, random: Buffer): Buffer =>
  hkdf(Buffer.concat([ephemeralAgreement, identityAgreement, random]), Buffer.alloc(0), ADV_SECRET_INFO)
