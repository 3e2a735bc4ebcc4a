/**
 * @module http/session-route
 * The one handler of every endpoint that acts on a session (all but POST /session, GET /session and GET
 * /session/qr). It runs the steps in the order app.ts documents, each stopping the request with its
 * `GatewayError`: authentication (400, 404) → the answer budget of a large answer (503) → the session's rate (429)
 * → the JSON body (415, 413, 400) → validation (400) → the route's own work. The route is handed what those steps
 * found as typed context (the session, the validated input, the request's abort signal) and answers with the body it
 * returns, written in pieces (answers/json-answer.ts), or for a read with the JSON bytes its session's thread built
 * (SessionSystem.read): no `res.locals`, no casts. One handler, not a chain of
 * layers: each layer would cost every request a dispatch (BENCHMARKS.md).
 *
 * @example
 * router.post('/typing', sessionRoute(deps, { rate: 'send', body: true, parse: req => parseTyping(req.body) },
 *   async ({ session, input, signal }) => {
 *     await deps.system.run(session.id, { type: 'sendTyping', ...input }, signal)
 *     return { id: session.id }
 *   }))
 */
import type { Request, RequestHandler, Response } from 'express'
import type { AppDeps } from './deps.js'
import { jsonBodyReader } from './json-body.js'
import { type RateFamily, sessionRateOf } from './limits/session-rate.js'
import { requestSignal } from './request-signal.js'
import { sendJson, sendLargeJson } from './answers/json-answer.js'
import { type AuthenticatedSession, authenticate } from './session-auth.js'

/** What a session route's work is handed. */
export interface SessionContext<Input> {
  /** The caller's session, authenticated by its `id` and `session-id` headers. */
  session: AuthenticatedSession
  /** What `parse` made of the request; undefined for a route without one. */
  input: Input
  /** Fires when the client hangs up before its response is complete (made on first read). */
  readonly signal: AbortSignal
  /**
   * Settles when the response closes: sent in full and drained to the kernel, or cut (made on first read). Given to
   * `system.run`, it keeps the command's place in the session's MAX_PENDING_PER_SESSION until then, so a client
   * that does not read its answers holds its own slots, not only the actor's time.
   */
  readonly answered: Promise<void>
  req: Request
  /** For headers only (`Cache-Control`): the body is what the work returns. */
  res: Response
}

export interface SessionRouteOptions<Input> {
  /** The family whose bucket the request takes a token of (limits/session-rate.ts); none: no limit. */
  rate?: RateFamily
  /**
   * Take the token after validation rather than before the body is read: for a limit whose wait is long (the
   * pairing code's), so that a mistyped request (400) does not make the client wait for the corrected one.
   */
  rateAfterValidation?: boolean
  /**
   * The answer's size is the platform's data (lists of groups, members, channels, channel posts): refused with 503
   * while the process's answer bytes waiting for slow clients are past ANSWER_BYTES_PER_PROCESS
   * (answers/answer-budget.ts): checked before the rate's token is taken, and again when its answer's turn to be
   * written comes (one at a time: answers/json-answer.ts).
   */
  largeAnswer?: boolean
  /** Read a JSON body of at most BODY_LIMIT_BYTES before validation. */
  body?: boolean
  /** Validates what the client sent (body, query, path); what it throws is the answer. */
  parse?: (req: Request) => Input | Promise<Input>
}

export function sessionRoute<Input = undefined, Body = unknown>(
  deps: AppDeps,
  options: SessionRouteOptions<Input>,
  work: (context: SessionContext<Input>) => Body | Promise<Body>,
): RequestHandler {
  const { system, settings } = deps
  const takeToken = options.rate === undefined ? undefined : sessionRateOf(deps, options.rate)
  const readBody = options.body ? jsonBodyReader(settings.BODY_LIMIT_BYTES) : undefined
  const { parse, rateAfterValidation = false } = options
  const budget = options.largeAnswer ? deps.answers : undefined
  return async (req, res) => {
    const session = authenticate(system, req)
    budget?.admit()
    if (!rateAfterValidation) takeToken?.(session.id)
    if (readBody) await readBody(req, res)
    const input = (parse ? await parse(req) : undefined) as Input
    if (rateAfterValidation) takeToken?.(session.id)
    let signal: AbortSignal | undefined
    let answered: Promise<void> | undefined
    const context: SessionContext<Input> = {
      session,
      input,
      get signal() {
        signal ??= requestSignal(res)
        return signal
      },
      get answered() {
        answered ??= new Promise<void>(resolve => res.once('close', () => resolve()))
        return answered
      },
      req,
      res,
    }
    const body = await work(context)
    // a large answer is written in the budget's turn, which checks the budget again (answers/json-answer.ts)
    if (budget) await sendLargeJson(res, body, budget)
    else sendJson(res, body, deps.answers)
  }
}
