/**
 * @module http/endpoints/status/route
 * POST /status: validated body → `postStatus` command → `{ statusId }`.
 */
import { Router } from 'express'
import type { AppDeps } from '../../deps.js'
import { assertTextLength } from '../../limits/text-length.js'
import { sessionRoute } from '../../session-route.js'
import { parsePostStatus } from './schema.js'

export function statusRoutes(deps: AppDeps): Router {
  const { system, settings } = deps
  const router = Router()
  const parse = (req: { body: unknown }) => {
    const content = parsePostStatus(req.body)
    assertTextLength(content, settings.TEXT_MAX_CHARS)
    return content
  }
  router.post(
    '/status',
    sessionRoute(deps, { rate: 'send', body: true, parse }, async ({ session, input: content, signal }) => {
      const reply = await system.run(session.id, { type: 'postStatus', content }, signal)
      return { statusId: reply.statusId }
    }),
  )
  return router
}
