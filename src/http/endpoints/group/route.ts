/**
 * @module http/endpoints/group/route
 * GET /group, GET /group/member?groupId=, GET /group/:groupId. `/group/member` is registered before
 * `/group/:groupId` so it is never read as a group ID (a group ID always ends in `@g.us`, `member` does not).
 */
import { type Request, Router } from 'express'
import type { Group, GroupMember } from '../../../protocol/spec-types.js'
import type { AppDeps } from '../../deps.js'
import { sessionRoute } from '../../session-route.js'
import { parseGroupId } from './schema.js'

/** Response bodies carry exactly the spec's fields, whatever the system sent. */
const groupBody = (g: Group): Group => ({
  id: g.id,
  name: g.name,
  description: g.description,
  picture: g.picture,
  created: g.created,
})
const memberBody = (m: GroupMember): GroupMember => ({ id: m.id, name: m.name, phone: m.phone })

export function groupRoutes(deps: AppDeps): Router {
  const { system } = deps
  const router = Router()
  const read = { rate: 'read', largeAnswer: true } as const

  router.get(
    '/group',
    sessionRoute(deps, read, async ({ session, signal, answered }) => {
      const reply = await system.run(session.id, { type: 'listGroups' }, signal, answered)
      return { docs: reply.docs.map(groupBody) }
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
        const reply = await system.run(session.id, { type: 'listGroupMembers', groupId }, signal, answered)
        return { docs: reply.docs.map(memberBody) }
      },
    ),
  )

  router.get(
    '/group/:groupId',
    sessionRoute(
      deps,
      { ...read, parse: groupIdIn('params') },
      async ({ session, input: groupId, signal, answered }) => {
        const reply = await system.run(session.id, { type: 'getGroup', groupId }, signal, answered)
        return groupBody(reply)
      },
    ),
  )

  return router
}
