/**
 * @module platform/baileys/patches/signature-check
 * Restores the platform's signature checks that Baileys 7.0.0-rc14 skips (DESIGN.md, "Baileys rc14 `Curve.verify`"):
 * its `Curve.verify` treats only a throw from libsignal as failure, but libsignal's `verifySignature` returns false,
 * so the Noise certificate chain (noise-handler: leaf by intermediate, intermediate by WA_CERT_DETAILS.PUBLIC_KEY)
 * and the phone's account signature at pairing (validate-connection) always passed.
 *
 * Baileys' modules all import the one exported `Curve` object and call `Curve.verify` on each use, so replacing
 * the method on that object (not node_modules) reaches them. The replacement answers like Baileys expects (a
 * boolean, never a throw) and checks with the native XEdDSA path (`../xeddsa.ts`). Baileys then throws its own
 * errors ('noise certificate signature invalid', 'noise intermediate certificate signature invalid',
 * 'Failed to verify account signature'), which end the socket and reach the link's close detail.
 *
 * Per thread (each worker has its own module instances): `openBaileysSocket` calls `setPlatformSignatureCheck`
 * before every socket, so the setting VERIFY_PLATFORM_SIGNATURES holds before any handshake.
 */
import { Curve } from '@whiskeysockets/baileys'
import { xeddsaVerify } from '../xeddsa.js'

/** Baileys' own (non-checking) verify, kept so VERIFY_PLATFORM_SIGNATURES=false restores it exactly. */
const baileysVerify = Curve.verify
/** libsignal's key-type prefix on 33-byte curve25519 public keys. */
const DJB_KEY_TYPE = 5

/**
 * `Curve.verify` as it should be: true only for a valid XEdDSA signature of `message` by `pubKey` (32 bytes, or
 * 33 with libsignal's type prefix); false for a bad signature, a wrong key, or malformed input.
 */
export function checkedVerify(pubKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  const key = pubKey.length === 33 && pubKey[0] === DJB_KEY_TYPE ? pubKey.subarray(1) : pubKey
  try {
    return xeddsaVerify(key, message, signature)
  } catch {
    return false // wrong key or signature length: Baileys expects false, not a throw
  }
}

/** Turns the check on (default) or back to Baileys' own verify, for this thread. Cheap; call before each socket. */
export function setPlatformSignatureCheck(enabled: boolean): void {
  const wanted = enabled ? checkedVerify : baileysVerify
  if (Curve.verify !== wanted) Curve.verify = wanted
}
