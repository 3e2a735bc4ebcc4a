/**
 * @module http/routes/status
 * POST /status: validated body → `postStatus` command → `{ statusId }`.
 */
import { Router } from 'express'
import { authOf, headerGuard } from '../header-guard.js'
import { jsonBody } from '../json-body.js'
import { requestSignal } from '../request-signal.js'
import { parsePostStatus } from '../schemas/status.js'
import type { AppDeps } from './deps.js'

export function statusRoutes({ system, config }: AppDeps): Router {
  const router = Router()
  router.post('/status', headerGuard(system), jsonBody(config.BODY_LIMIT_BYTES), async (req, res) => {
    const { id } = authOf(res)
    const content = parsePostStatus(req.body)
    const reply = await system.run(id, { type: 'postStatus', content }, requestSignal(res))
    res.json({ statusId: reply.statusId })
  })
  return router
}
