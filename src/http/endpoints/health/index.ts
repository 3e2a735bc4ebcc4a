/**
 * @module http/endpoints/health
 * GET /healthz and GET /readyz, the probes: no headers, answered before any session check.
 */
import { routerEndpoint } from '../endpoint.js'
import { healthPaths } from './openapi.js'
import { healthRoutes } from './route.js'

export const healthEndpoint = routerEndpoint(healthRoutes, healthPaths)
