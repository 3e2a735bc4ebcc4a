/**
 * @module http/endpoints/session
 * GET, POST and DELETE /session and POST /session/reset (./route.ts), described by ./openapi.ts.
 */
import type { Endpoint } from '../endpoint.js'
import { sessionPaths } from './openapi.js'
import { sessionRoutes, getSession } from './route.js'

export const sessionEndpoint: Endpoint = {
  mount(app, deps) {
    // GET /session on the app itself, ahead of every router: every client polls it, and each router it passed
    // would cost it a path match (BENCHMARKS.md).
    app.get('/session', getSession(deps))
    app.use(sessionRoutes(deps))
  },
  paths: sessionPaths,
}
