/**
 * @module http/endpoints/session/session-answer
 * GET /session's answer: the Session object a snapshot shows, as JSON text, and its ETag. Every client polls it, so
 * what a snapshot shows is rendered once per snapshot (a snapshot is replaced, never changed in place), not once per
 * poll: the JSON around the secret and the ETag of the whole. A poll only puts the secret it presented (the one
 * that authenticated it) between the two parts. The secret itself is not kept: it stays in the gateway's memory only
 * as the hash the snapshot cache checks it against.
 *
 * @example
 * const { text, etag } = sessionAnswer(snapshot, sessionId)
 * // text: '{"id":"…","generatedId":"…","name":"…","sessionId":"…","isConnected":true,"qrcode":"",…}'
 * // etag === etagOf(text)
 */
import type { AccountRestrictions } from '../../../protocol/restrictions.js'
import type { SessionSnapshot } from '../../../protocol/snapshot.js'
import type { Session } from '../../../protocol/spec-types.js'
import { etagOf } from '../../session-wait/etag.js'

/** The Session object, fields in the spec's order, and what the gateway adds. */
type SessionBody = Session & { restrictions?: AccountRestrictions }

/** The fields before the secret, and after it. */
type Before = Pick<Session, 'id' | 'generatedId' | 'name'>
type After = Omit<SessionBody, keyof Before | 'sessionId'>

const before = (s: SessionSnapshot): Before => ({ id: s.id, generatedId: s.generatedId, name: s.name })

function after(s: SessionSnapshot): After {
  return {
    isConnected: s.isConnected,
    qrcode: s.qrcode,
    picture: s.picture,
    // not in the spec: the platform's restrictions on the account, once connected and read (docs/api.md:
    // Account health)
    ...(s.isConnected && s.restrictions ? { restrictions: s.restrictions } : {}),
    ...(s.notConnected ? { reason: s.notConnected.reason, reasonMessage: s.notConnected.message } : {}),
  }
}

/** A snapshot's answer without its secret: `head` + the secret as a JSON string + `tail` is the body's JSON. */
interface Rendered {
  head: string
  tail: string
  etag: string
}

const rendered = new WeakMap<SessionSnapshot, Rendered>()

/**
 * The JSON text of the Session object `snapshot` shows to the holder of `sessionId`, and its ETag. `sessionId` must be
 * the secret that authenticated the snapshot's session: the ETag is worked out from it on the snapshot's first answer.
 */
export function sessionAnswer(snapshot: SessionSnapshot, sessionId: string): { text: string; etag: string } {
  const secret = JSON.stringify(sessionId)
  let parts = rendered.get(snapshot)
  if (parts === undefined) {
    const head = `${JSON.stringify(before(snapshot)).slice(0, -1)},"sessionId":`
    const tail = `,${JSON.stringify(after(snapshot)).slice(1)}`
    parts = { head, tail, etag: etagOf(head + secret + tail) }
    rendered.set(snapshot, parts)
  }
  return { text: parts.head + secret + parts.tail, etag: parts.etag }
}
