/**
 * @module http/endpoints/session/route
 * GET /session (the Session object from the snapshot cache, no thread hop; it can wait for a change), POST /session
 * (create, no headers; an optional body may name the session's proxy),
 * and two endpoints the spec leaves unshown: POST /session/reset (restart QR pairing) and DELETE /session.
 */
import { Router, type Request, type RequestHandler } from 'express'
import type { SessionSystem } from '../../../actors/main/session-system.js'
import { GatewayError } from '../../../protocol/errors.js'
import type { AppDeps, EndpointDeps } from '../../deps.js'
import { jsonBodyReader } from '../../json-body.js'
import { creationGate, localCreationRate } from '../../limits/creation-gate.js'
import { answerConditional, type ConditionalGet, type Shown } from '../../session-wait/long-poll.js'
import { parseProxyBody } from '../../schemas/proxy.js'
import { authenticate } from '../../session-auth.js'
import { sessionRoute } from '../../session-route.js'
import { SESSION_PATH } from '../../api-paths.js'
import { sessionAnswer } from './session-answer.js'

/**
 * GET /session's Cache-Control: the body holds the session's secret, so no shared cache may keep it (`private`), and
 * a client's own cache must ask again each time (`no-cache`; the ETag makes that a 304 when nothing changed).
 */
const SESSION_CACHE_CONTROL = 'private, no-cache'

/** The Session object `req`'s credentials show now, and its ETag (rendered once per snapshot: ./session-answer.ts). */
function shownSession(system: SessionSystem, req: Request): Shown {
  const { sessionId, snapshot } = authenticate(system, req)
  const { text, etag } = sessionAnswer(snapshot, sessionId)
  return { session: snapshot.id, etag, text }
}

/**
 * GET /session, with the ETag of its answer, and waiting for a change with `If-None-Match` and `?wait=`
 * (session-wait/long-poll.ts). ./index.ts mounts it on the app itself, ahead of every router, and it authenticates
 * in the handler rather than through a layer of its own: every client polls it, and each layer costs a poll a path match
 * (BENCHMARKS.md).
 */
export function getSession({ system, waits }: Pick<EndpointDeps, 'system' | 'waits'>): RequestHandler {
  const get: ConditionalGet = {
    budget: 'api',
    cacheControl: SESSION_CACHE_CONTROL,
    current: req => shownSession(system, req),
  }
  return (req, res, next) => answerConditional(waits, req, res, next, get)
}

export function sessionRoutes(deps: AppDeps): Router {
  const { system, logger, settings } = deps
  const router = Router()
  const gate = creationGate(
    settings.CREATE_SESSION_TOKEN,
    deps.cluster ? deps.cluster.creationRate : localCreationRate(settings.SESSION_CREATE_PER_MINUTE),
  )
  const readBody = jsonBodyReader(settings.BODY_LIMIT_BYTES)

  // SPEC: no body. An optional one may name the session's proxy (docs/api.md: A proxy per session); without a body,
  // nothing changes (no content type is asked for).
  router.post(SESSION_PATH, async (req, res) => {
    const client = await gate(req, res)
    await readBody(req, res)
    const proxy = await parseProxyBody(req.body, settings, false)
    let created: { id: string; sessionId: string }
    try {
      created = await system.createSession(client, proxy === undefined ? {} : { proxy })
    } catch (err) {
      // SPEC: the only failure of POST /session is 500 `internal server error`; back-pressure, a full server (503)
      // and the cap of unpaired sessions per client (429) pass through.
      if (err instanceof GatewayError && [429, 503].includes(err.status)) throw err
      logger.error({ err }, 'session creation failed')
      throw new GatewayError('INTERNAL')
    }
    res.json({ id: created.id, sessionId: created.sessionId })
  })

  router.post(
    '/session/reset',
    sessionRoute(deps, { rate: 'reset' }, async ({ session: { id, sessionId } }) => {
      await system.resetSession(id)
      return { id, sessionId }
    }),
  )

  router.delete(
    SESSION_PATH,
    sessionRoute(deps, { rate: 'delete' }, async ({ session: { id } }) => {
      await system.deleteSession(id)
      return { id }
    }),
  )

  return router
}
