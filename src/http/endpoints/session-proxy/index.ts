/**
 * @module http/endpoints/session-proxy
 * GET, PUT and DELETE /session/proxy (./route.ts), described by ./openapi.ts.
 */
import { routerEndpoint } from '../endpoint.js'
import { sessionProxyPaths } from './openapi.js'
import { sessionProxyRoutes } from './route.js'

export const sessionProxyEndpoint = routerEndpoint(sessionProxyRoutes, sessionProxyPaths)
