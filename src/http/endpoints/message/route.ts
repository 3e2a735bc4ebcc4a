/**
 * @module http/endpoints/message/route
 * POST /message: validated body → `sendMessage` command → `{ messageId }`.
 */
import { Router } from 'express'
import { authOf, sessionAuth } from '../../session-auth.js'
import { jsonBody } from '../../json-body.js'
import { requestSignal } from '../../request-signal.js'
import { parseSendMessage } from './schema.js'
import type { AppDeps } from '../../deps.js'
import { sessionRateOf } from '../../limits/session-rate.js'
import { assertTextLength } from '../../limits/text-length.js'

export function messageRoutes(deps: AppDeps): Router {
  const { system, settings } = deps
  const router = Router()
  router.post(
    '/message',
    sessionAuth(system),
    sessionRateOf(deps, 'send'),
    jsonBody(settings.BODY_LIMIT_BYTES),
    async (req, res) => {
      const { id } = authOf(res)
      const { destination, content } = parseSendMessage(req.body)
      assertTextLength(content, settings.TEXT_MAX_CHARS)
      const reply = await system.run(id, { type: 'sendMessage', destination, content }, requestSignal(res))
      res.json({ messageId: reply.messageId })
    },
  )
  return router
}
