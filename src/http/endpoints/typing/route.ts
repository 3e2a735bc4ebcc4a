/**
 * @module http/endpoints/typing/route
 * POST /typing: validated body → `sendTyping` command → `{ id }`, the session's own id (SPEC: not a message ID).
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
      const { destination, kind } = input
      await system.run(session.id, { type: 'sendTyping', destination, kind }, signal)
      return { id: session.id }
    }),
  )
  return router
}
