/**
 * @module platform/baileys/xeddsa
 * XEdDSA signature checks (Signal's curve25519 signatures, as the platform signs its certificate chain and a phone
 * signs a companion's identity) through Node's native Ed25519. The pure-JS `curve25519-js` verify that libsignal
 * calls takes ~14 ms per signature; this takes a fraction of a millisecond (bench/verify-cost.ts). Same maths as
 * curve25519-js `verify`: the Montgomery key u maps to the Edwards y = (u-1)/(u+1), the sign bit travels in the
 * signature's last byte. Shared by the gateway's signature check and the sandbox's simulated phones.
 */
import { createPublicKey, verify as ed25519Verify } from 'node:crypto'

const P = (1n << 255n) - 19n
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex')

/**
 * 1/a mod P by the extended Euclidean algorithm: ~20x faster in BigInt than Fermat's a^(P-2) (which made the
 * conversion cost more than the native verify). Not constant-time, which is fine: every input here is public.
 */
function invert(a: bigint): bigint {
  let [r0, r1] = [a % P, P]
  let [s0, s1] = [1n, 0n]
  while (r1 !== 0n) {
    const q = r0 / r1
    ;[r0, r1] = [r1, r0 - q * r1]
    ;[s0, s1] = [s1, s0 - q * s1]
  }
  return ((s0 % P) + P) % P
}

/** The Ed25519 public key (32 bytes, sign bit clear) birationally equivalent to the curve25519 key `u`. */
function edwardsOf(publicKey: Uint8Array): Buffer {
  let u = 0n
  for (let i = 31; i >= 0; i--) u = (u << 8n) | BigInt(publicKey[i]!)
  u &= (1n << 255n) - 1n
  const y = (((u - 1n + P) % P) * invert((u + 1n) % P)) % P
  const edwards = Buffer.alloc(32)
  let rest = y
  for (let i = 0; i < 32; i++) {
    edwards[i] = Number(rest & 0xffn)
    rest >>= 8n
  }
  return edwards
}

/**
 * True when `signature` is a valid XEdDSA signature of `message` by the curve25519 `publicKey` (32 bytes, no type
 * prefix). Throws on a wrong key or signature length, like curve25519-js.
 */
export function xeddsaVerify(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  if (signature.length !== 64) throw new Error('wrong signature length')
  if (publicKey.length !== 32) throw new Error('wrong public key length')
  const edwards = edwardsOf(publicKey)
  edwards[31] = (edwards[31]! & 0x7f) | (signature[63]! & 0x80)
  const sig = Buffer.from(signature)
  sig[63] = sig[63]! & 0x7f
  try {
    const key = createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, edwards]), format: 'der', type: 'spki' })
    return ed25519Verify(null, message, key, sig)
  } catch {
    return false
  }
}
