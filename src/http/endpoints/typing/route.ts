/**
 * @module http/endpoints/typing/route
 * POST /typing: validated body, which is the `sendTyping` command → `{ id }`, the session's own id (SPEC: not a
 * message ID).
 */
import { Router } from 'express'
import type { AppDeps } from '../../deps.js'
import { sessionRoute } from '../../session-route.js'
import { parseTyping } from './schema.js'

export function typingRoutes(deps: AppDeps): Router {
  const { system } = deps
  const router = Router()
  const parse = (req: { body: unknown }) => parseTyping(req.body)
  router.post(
    '/typing',
    sessionRoute(deps, { rate: 'send', body: true, parse }, async ({ session, input, signal }) => {
      await system.run(session.id, input, signal)
      return { id: session.id }
    }),
  )
  return router
}
