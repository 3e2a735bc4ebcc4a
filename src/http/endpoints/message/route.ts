/**
 * @module http/endpoints/message/route
 * POST /message: validated body, which is the `sendMessage` command (built once, ./schema.ts) → `{ messageId }`.
 */
import { Router } from 'express'
import type { AppDeps } from '../../deps.js'
import { assertTextLength } from '../../limits/text-length.js'
import { sessionRoute } from '../../session-route.js'
import { parseSendMessage } from './schema.js'

export function messageRoutes(deps: AppDeps): Router {
  const { system, settings } = deps
  const router = Router()
  const parse = (req: { body: unknown }) => {
    const message = parseSendMessage(req.body)
    assertTextLength(message.content, settings.TEXT_MAX_CHARS)
    return message
  }
  router.post(
    '/message',
    sessionRoute(deps, { rate: 'send', body: true, parse }, async ({ session, input, signal }) => {
      const reply = await system.run(session.id, input, signal)
      return { messageId: reply.messageId }
    }),
  )
  return router
}
