/**
 * @module http/endpoints/typing/route
 * POST /typing: validated body → `typing` command → `{ id }`, the session's own id (SPEC: not a message ID).
 */
import { Router } from 'express'
import { authOf, sessionAuth } from '../../session-auth.js'
import { jsonBody } from '../../json-body.js'
import { requestSignal } from '../../request-signal.js'
import { parseTyping } from './schema.js'
import type { AppDeps } from '../../deps.js'
import { sessionRateOf } from '../../limits/session-rate.js'

export function typingRoutes(deps: AppDeps): Router {
  const { system, settings } = deps
  const router = Router()
  router.post(
    '/typing',
    sessionAuth(system),
    sessionRateOf(deps, 'send'),
    jsonBody(settings.BODY_LIMIT_BYTES),
    async (req, res) => {
      const { id } = authOf(res)
      const { destination, kind } = parseTyping(req.body)
      await system.run(id, { type: 'sendTyping', destination, kind }, requestSignal(res))
      res.json({ id })
    },
  )
  return router
}
