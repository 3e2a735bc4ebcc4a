/**
 * @module http/endpoints/typing
 * POST /typing: a validated body (./schema.ts) → `typing` command → `{ id }` (./route.ts).
 */
import { routerEndpoint } from '../endpoint.js'
import { typingPaths } from './openapi.js'
import { typingRoutes } from './route.js'

export const typingEndpoint = routerEndpoint(typingRoutes, typingPaths)
