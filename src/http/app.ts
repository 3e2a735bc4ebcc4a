/**
 * @module http/app
 * Builds the express application of the gateway. It never listens (only `src/main.ts` does), so tests drive it
 * in-process with a fake `SessionSystem`.
 *
 * Order of checks on every endpoint (each stops the request): headers (400 `invalid header`) → session (404
 * `session not found`) → for the reads of groups and channels, the answer bytes waiting in the process (503,
 * answers/answer-budget.ts) → the session's send rate on POST /message, /status, /typing (429) → content type and
 * body (415, 413, 400 `body is not valid JSON`) → validation (400, every failing rule joined by '\n') → the system
 * (500 `session not connected`, then the operation itself).
 *
 * @example
 * const settings = loadSettings()
 * const app = createApp({ system, settings: appSettings(settings), logger: pino() })
 */
import express from 'express'
import type { AppDeps } from './deps.js'
import { ENDPOINTS } from './endpoints/index.js'
import { errorHandler, notFoundHandler } from './errors.js'
import { GatewayError } from '../protocol/errors.js'
import { qrPageRoutes } from './qr-page/routes.js'
import { openApiRoutes } from './openapi/router.js'
import { opsParts } from './ops/index.js'
import { sessionWaits } from './session-wait/long-poll.js'
import { AnswerBudget } from './answers/answer-budget.js'
import { isForwardedRequest } from './client-key.js'

export { type AppDeps, appSettings } from './deps.js'

export function createApp(deps: AppDeps): express.Express {
  const app = express()
  app.disable('x-powered-by')
  // No ETag computed by express for every answer (a hash of each body sent, a weak validator): GET /session and GET
  // /session/qr set their own strong one, from their snapshot, and answer If-None-Match themselves (session-wait/).
  app.set('etag', false)
  // Which proxies' X-Forwarded-For to believe for `req.ip`, the client of the per-client limits (TRUST_PROXY).
  app.set('trust proxy', deps.settings.TRUST_PROXY)
  // Request log + metrics first (they must see every request). Then the endpoints, the polled GET /session first:
  // every router a request passes costs it a path match (BENCHMARKS.md). Then /metrics and the pages.
  const endpointDeps = {
    ...deps,
    answers: deps.answers ?? new AnswerBudget(deps.settings.ANSWER_BYTES_PER_PROCESS),
    waits: sessionWaits(deps.system, deps.settings),
  }
  const ops = opsParts(endpointDeps)
  app.use((req, res, next) => {
    res.setHeader('X-Content-Type-Options', 'nosniff')
    // OPTIONS would get express's automatic `Allow` answer in text/plain: the gateway serves no CORS, so it is a
    // method like any other it does not serve, 404 in the error shape (checked here: no layer of its own)
    if (req.method === 'OPTIONS') ops.observer(req, res, () => next(new GatewayError('NOT_FOUND')))
    else ops.observer(req, res, next)
  })
  // Cluster mode: a request for a session of another node is authenticated here, then forwarded (cluster/front.ts).
  if (deps.cluster) app.use(deps.cluster.front)
  // A connection a peer node proved its own carries many clients' requests: it counts only in the total from now
  // on, as a trusted proxy's does (connections/connection-guard.ts), so the nodes' pools are never refused.
  const connections = deps.connections
  if (deps.cluster && connections) {
    app.use((req, _res, next) => {
      if (isForwardedRequest(req)) connections.countOnlyInTotal(req.socket)
      next()
    })
  }
  for (const endpoint of ENDPOINTS) endpoint.mount(app, endpointDeps)
  app.use(ops.metrics)
  // API_DOCS=false: /openapi.json and /docs are not mounted at all, so they answer the 404 of any unknown path.
  if (deps.settings.API_DOCS) app.use(openApiRoutes())
  app.use(qrPageRoutes())

  // Anything else, including every method on /webhook (the retired feature, SPEC: Events), is 404.
  app.use(notFoundHandler)
  app.use(errorHandler(deps.logger))
  return app
}
