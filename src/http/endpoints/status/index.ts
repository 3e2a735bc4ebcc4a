/**
 * @module http/endpoints/status
 * POST /status: a validated body (./schema.ts) → `postStatus` command → `{ statusId }` (./route.ts).
 */
import { routerEndpoint } from '../endpoint.js'
import { statusPaths } from './openapi.js'
import { statusRoutes } from './route.js'

export const statusEndpoint = routerEndpoint(statusRoutes, statusPaths)
