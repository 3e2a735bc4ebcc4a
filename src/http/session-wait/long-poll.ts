/**
 * @module http/session-wait/long-poll
 * The conditional GET behind GET /session and GET /session/qr (docs/api.md: "GET /session that waits"). Every 200
 * carries the ETag of its body (./etag.ts). Then:
 *   - no `If-None-Match`, or one that does not name the current ETag: 200 at once with the current answer (a spec
 *     client, which sends neither header nor `wait`, gets exactly the spec's answer, plus the ETag);
 *   - `If-None-Match` naming it, no `wait` (or `wait=0`): 304 at once, as HTTP has it;
 *   - `If-None-Match` naming it and `wait=<seconds>`: the request waits, in the wait room (./wait-room.ts), until
 *     the answer differs (200 with the new one, or the error it now is: 404 once the session is gone, 410 once a
 *     view link's session paired), or 304 with the same ETag when the wait ends unchanged. A wait longer than
 *     SESSION_WAIT_MAX_SECONDS is cut to it; a `wait` that is not a whole number of seconds is 400.
 * A wait also ends with 304 when the session leaves for another node (the client asks again, wherever it runs now,
 * and its ETag still holds there), and at shutdown with the current answer and `Connection: close`. A client that
 * hangs up frees its slot at once.
 */
import type { NextFunction, Request, Response } from 'express'
import type { SessionSystem } from '../../actors/main/session-system.js'
import type { HttpSettings } from '../settings.js'
import { validationFailed } from '../../protocol/errors.js'
import { RULE } from '../schemas/validation-lines.js'
import { requestClientKey } from '../client-key.js'
import { sendJsonText } from '../answers/json-answer.js'
import { noneMatch } from './etag.js'
import { WaitRoom, type WaitTicket } from './wait-room.js'

/** The waits of one app: its room and the longest wait. */
export interface SessionWaits {
  room: WaitRoom
  /** SESSION_WAIT_MAX_SECONDS: a longer `wait` is cut to it; 0 = no request waits. */
  maxSeconds: number
}

/** The waits of an app on `system`, woken by the system's changes. */
export function sessionWaits(system: SessionSystem, settings: HttpSettings): SessionWaits {
  const room = new WaitRoom({
    perSession: settings.SESSION_WAITS_PER_SESSION,
    perClient: settings.SESSION_WAITS_PER_CLIENT,
    perProcess: settings.SESSION_WAITS_PER_PROCESS,
  })
  system.watch(change => room.wake(change))
  return { room, maxSeconds: settings.SESSION_WAIT_MAX_SECONDS }
}

/** One answer as it is now: the session it shows, its body's JSON text and the body's ETag. */
export interface Shown {
  session: string
  etag: string
  /** Undefined: unchanged (304). */
  text: string | undefined
}

/** One conditional GET endpoint, made once per route (no closure per request: GET /session is the polled path). */
export interface ConditionalGet {
  budget: WaitTicket['budget']
  /** The answers' Cache-Control (200 and 304 alike). */
  cacheControl: string
  /** The answer to `req` now; throws the request's error (400, 404, 410...) as any handler does. */
  current: (req: Request) => Shown
}

/** The seconds `?wait=` asks for, cut to `maxSeconds`; 0 without it. 400 for anything but a whole number. */
export function waitSeconds(value: unknown, maxSeconds: number): number {
  if (value === undefined) return 0
  if (typeof value !== 'string' || !/^\d+$/.test(value)) throw validationFailed([`wait ${RULE.WAIT}`])
  return Math.min(Number(value), maxSeconds)
}

function send(res: Response, get: ConditionalGet, shown: Shown, closing: boolean): void {
  res.setHeader('ETag', shown.etag)
  res.setHeader('Cache-Control', get.cacheControl)
  // shutdown: the answer goes, then the connection (a kept-alive one would hold the drain)
  if (closing) res.setHeader('Connection', 'close')
  if (shown.text === undefined) res.status(304).end()
  else sendJsonText(res, shown.text)
}

const unchanged = (shown: Shown): Shown => ({ ...shown, text: undefined })

/** Answers a GET of `get` for `req`: now, or once the answer changes or the wait ends. */
export function answerConditional(
  waits: SessionWaits,
  req: Request,
  res: Response,
  next: NextFunction,
  get: ConditionalGet,
): void {
  const first = get.current(req)
  // a URL without a query cannot ask to wait: the polled path skips the query parser
  const seconds = req.url.includes('?') ? waitSeconds(req.query.wait, waits.maxSeconds) : 0
  const held = req.headers['if-none-match']
  const closing = waits.room.closed
  const holdsCurrent = noneMatch(held, first.etag)
  if (!holdsCurrent || seconds === 0 || closing) {
    send(res, get, holdsCurrent ? unchanged(first) : first, closing)
    return
  }
  const ticket = { session: first.session, budget: get.budget, client: requestClientKey(req), ms: seconds * 1000 }
  const waiter = waits.room.enter(ticket, reason => {
    // gone to another node: unchanged as far as this node knows; the client's next request finds the session there
    if (reason === 'moved') {
      waiter.leave()
      send(res, get, unchanged(first), false)
      return
    }
    let now: Shown
    try {
      now = get.current(req)
    } catch (err) {
      waiter.leave()
      next(err)
      return
    }
    const changed = !noneMatch(held, now.etag)
    if (!changed && reason === 'changed') return // a snapshot that changed nothing the answer shows: wait on
    waiter.leave()
    send(res, get, changed ? now : unchanged(now), reason === 'closing')
  })
  // a client that hangs up frees its slot at once (one gone before this handler ran, too)
  res.on('close', () => waiter.leave())
  if (req.socket.destroyed) waiter.leave()
}
