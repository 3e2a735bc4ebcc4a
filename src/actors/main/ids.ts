/**
 * @module actors/main/ids
 * Session identifiers. `id` is public-ish (it names the session in logs and routing); `sessionId` is the secret.
 * Both carry 144 random bits. Only a sha256 of the secret is stored, and it is compared in constant time, so
 * neither the store nor response timing reveals it.
 */
import { hash, randomBytes, timingSafeEqual } from 'node:crypto'

export const newSessionIds = (): { id: string; sessionId: string } => ({
  id: randomBytes(18).toString('base64url'),
  sessionId: randomBytes(18).toString('base64url'),
})

// the one-shot `hash` is ~3x cheaper than a createHash object, and this runs on every authenticated request
const digest = (secret: string): Buffer => hash('sha256', secret, 'buffer')

/** Hex sha256 of the secret, as kept in `SessionRecord.secretHash`. */
export const hashSecret = (secret: string): string => digest(secret).toString('hex')

/** Constant-time check of a presented secret against a stored hash (both sides are 32-byte digests). */
export const secretMatches = (secretHash: string, presented: string): boolean =>
  secretMatchesHashBytes(Buffer.from(secretHash, 'hex'), presented)

/** The same against the hash's bytes, for a caller that checks every request (decoded once, not each time). */
export function secretMatchesHashBytes(stored: Buffer, presented: string): boolean {
  const given = digest(presented)
  return stored.length === given.length && timingSafeEqual(stored, given)
}
