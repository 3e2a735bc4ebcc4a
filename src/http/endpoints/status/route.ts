/**
 * @module http/endpoints/status/route
 * POST /status: validated body → `postStatus` command → `{ statusId }`.
 */
import { Router } from 'express'
import { authOf, sessionAuth } from '../../session-auth.js'
import { jsonBody } from '../../json-body.js'
import { requestSignal } from '../../request-signal.js'
import { parsePostStatus } from './schema.js'
import type { AppDeps } from '../../deps.js'
import { sessionRateOf } from '../../limits/session-rate.js'
import { assertTextLength } from '../../limits/text-length.js'

export function statusRoutes(deps: AppDeps): Router {
  const { system, settings } = deps
  const router = Router()
  router.post(
    '/status',
    sessionAuth(system),
    sessionRateOf(deps, 'send'),
    jsonBody(settings.BODY_LIMIT_BYTES),
    async (req, res) => {
      const { id } = authOf(res)
      const content = parsePostStatus(req.body)
      assertTextLength(content, settings.TEXT_MAX_CHARS)
      const reply = await system.run(id, { type: 'postStatus', content }, requestSignal(res))
      res.json({ statusId: reply.statusId })
    },
  )
  return router
}
