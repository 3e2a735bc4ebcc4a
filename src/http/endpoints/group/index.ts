/**
 * @module http/endpoints/group
 * GET /group, GET /group/member?groupId=, GET /group/:groupId: the account's groups and their members.
 */
import { routerEndpoint } from '../endpoint.js'
import { groupPaths } from './openapi.js'
import { groupRoutes } from './route.js'

export const groupEndpoint = routerEndpoint(groupRoutes, groupPaths)
