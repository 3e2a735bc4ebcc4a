/**
 * @module actors/main/ids
 * Session identifiers. `id` is public-ish (it names the session in logs and routing); `sessionId` is the secret.
 * Both carry 144 random bits. Only a sha256 of the secret is stored, and it is compared in constant time, so
 * neither the store nor response timing reveals it.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'

export const newSessionIds = (): { id: string; sessionId: string } => ({
  id: randomBytes(18).toString('base64url'),
  sessionId: randomBytes(18).toString('base64url'),
})

const digest = (secret: string): Buffer => createHash('sha256').update(secret, 'utf8').digest()

/** Hex sha256 of the secret, as kept in `SessionRecord.secretHash`. */
export const hashSecret = (secret: string): string => digest(secret).toString('hex')

/** Constant-time check of a presented secret against a stored hash (both sides are 32-byte digests). */
export function secretMatches(secretHash: string, presented: string): boolean {
  const stored = Buffer.from(secretHash, 'hex')
  const given = digest(presented)
  return stored.length === given.length && timingSafeEqual(stored, given)
}
