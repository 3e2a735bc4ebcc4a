/**
 * @module http/endpoints/group/route
 * GET /group, GET /group/member?groupId=, GET /group/:groupId. `/group/member` is registered before
 * `/group/:groupId` so it is never read as a group ID (a group ID always ends in `@g.us`, `member` does not). The
 * session's thread answers each with its JSON, built with exactly the spec's fields (protocol/read-answers.ts).
 */
import { type Request, Router } from 'express'
import type { AppDeps } from '../../deps.js'
import { sessionRoute } from '../../session-route.js'
import { parseGroupId } from './schema.js'

export function groupRoutes(deps: AppDeps): Router {
  const { system } = deps
  const router = Router()
  const read = { rate: 'read', largeAnswer: true } as const

  router.get(
    '/group',
    sessionRoute(deps, read, async ({ session, signal, answered }) => {
      return system.read(session.id, { type: 'listGroups' }, signal, answered)
    }),
  )

  const groupIdIn = (from: 'query' | 'params') => (req: Request) =>
    parseGroupId(from === 'query' ? req.query.groupId : req.params.groupId)

  router.get(
    '/group/member',
    sessionRoute(
      deps,
      { ...read, parse: groupIdIn('query') },
      async ({ session, input: groupId, signal, answered }) => {
        return system.read(session.id, { type: 'listGroupMembers', groupId }, signal, answered)
      },
    ),
  )

  router.get(
    '/group/:groupId',
    sessionRoute(
      deps,
      { ...read, parse: groupIdIn('params') },
      async ({ session, input: groupId, signal, answered }) => {
        return system.read(session.id, { type: 'getGroup', groupId }, signal, answered)
      },
    ),
  )

  return router
}
