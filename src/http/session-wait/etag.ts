/**
 * @module http/session-wait/etag
 * The ETag of a GET /session or GET /session/qr answer: a strong validator of its exact body, the first 128 bits of
 * the SHA-256 of its JSON text (base64url, quoted). It comes from the body alone, never from a counter or the
 * process, so the same state has the same ETag after a restart and on every node of a cluster: a client that asks
 * another node keeps waiting instead of being told of a change that did not happen. A GET /session body holds the
 * session's secret, so its ETag cannot be worked out without it.
 *
 * `If-None-Match` is read as RFC 9110 §13.1.2 says: `*` matches any current answer; otherwise a comma-separated
 * list of entity tags, compared weakly (a `W/` prefix is ignored).
 *
 * @example
 * const etag = etagOf('{"qrcode":"","expiresAt":"2026-11-25T10:03:00.000Z"}') // '"3q2-7wD…"' (24 characters)
 * noneMatch(`W/${etag}, "other"`, etag) // true: the client holds the current answer
 */
import { createHash } from 'node:crypto'

/** Base64url characters of the 128 bits kept. */
const ETAG_CHARS = 22

export const etagOf = (text: string): string =>
  `"${createHash('sha256').update(text).digest('base64url').slice(0, ETAG_CHARS)}"`

/** An entity tag with its optional weak prefix; the quoted part is what is compared. */
const ENTITY_TAG = /(?:W\/)?("[^"]*")/g

/** Whether `header` (If-None-Match) names `etag`, i.e. the client already holds the current answer. */
export function noneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false
  if (header.trim() === '*') return true
  for (const [, tag] of header.matchAll(ENTITY_TAG)) if (tag === etag) return true
  return false
}
