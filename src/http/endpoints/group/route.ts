/**
 * @module http/endpoints/group/route
 * GET /group, GET /group/member?groupId=, GET /group/:groupId. `/group/member` is registered before
 * `/group/:groupId` so it is never read as a group ID (a group ID always ends in `@g.us`, `member` does not).
 */
import { Router } from 'express'
import type { Group, GroupMember } from '../../../protocol/spec-types.js'
import { authOf, sessionAuth } from '../../session-auth.js'
import { sessionRateOf } from '../../limits/session-rate.js'
import { requestSignal } from '../../request-signal.js'
import { parseGroupId } from './schema.js'
import type { AppDeps } from '../../deps.js'

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
  const guard = sessionAuth(system)
  const readRate = sessionRateOf(deps, 'read')

  router.get('/group', guard, readRate, async (_req, res) => {
    const { id } = authOf(res)
    const reply = await system.run(id, { type: 'listGroups' }, requestSignal(res))
    res.json({ docs: reply.docs.map(groupBody) })
  })

  router.get('/group/member', guard, readRate, async (req, res) => {
    const { id } = authOf(res)
    const groupId = parseGroupId(req.query.groupId)
    const reply = await system.run(id, { type: 'listGroupMembers', groupId }, requestSignal(res))
    res.json({ docs: reply.docs.map(memberBody) })
  })

  router.get('/group/:groupId', guard, readRate, async (req, res) => {
    const { id } = authOf(res)
    const groupId = parseGroupId(req.params.groupId)
    const reply = await system.run(id, { type: 'getGroup', groupId }, requestSignal(res))
    res.json(groupBody(reply))
  })

  return router
}
