/**
 * @module http/endpoints/channel/route
 * GET /channel and GET /channel/message?channelId=&before=. The session's thread answers each with its JSON, built
 * with exactly the spec's fields (protocol/read-answers.ts).
 */
import { type Request, Router } from 'express'
import type { AppDeps } from '../../deps.js'
import { sessionRoute } from '../../session-route.js'
import { parseChannelQuery } from './schema.js'

export function channelRoutes(deps: AppDeps): Router {
  const { system } = deps
  const router = Router()
  // the answers' size is the platform's data: under the process's answer budget (answers/answer-budget.ts)
  const read = { rate: 'read', largeAnswer: true } as const

  router.get(
    '/channel',
    sessionRoute(deps, read, async ({ session, signal, answered }) => {
      return system.read(session.id, { type: 'listChannels' }, signal, answered)
    }),
  )

  const parse = (req: Request) => parseChannelQuery(req.query as Record<string, unknown>)
  router.get(
    '/channel/message',
    sessionRoute(deps, { ...read, parse }, async ({ session, input: query, signal, answered }) => {
      // before=0 is past the oldest post: the empty last page, without asking the platform.
      if (query.before === 0) return { docs: [], before: 0 }
      return system.read(session.id, { type: 'listChannelMessages', ...query }, signal, answered)
    }),
  )

  return router
}
