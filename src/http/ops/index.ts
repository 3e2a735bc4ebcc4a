/**
 * @module http/ops
 * Operations around the API, mounted first by `createApp`: the request log and the request metrics (both see
 * every request, so they come before the routes), then `/healthz`, `/readyz` and `/metrics`.
 */
import { Router } from 'express'
import { createMetricsRegistry } from '../../metrics/registry.js'
import type { AppDeps } from '../routes/deps.js'
import { healthRoutes } from './health.js'
import { metricsRoute, requestMetrics } from './metrics.js'
import { requestLog } from './request-log.js'

export function opsRoutes({ system, logger }: AppDeps): Router {
  const registry = createMetricsRegistry(system.ops)
  const router = Router()
  router.use(requestLog(logger))
  router.use(requestMetrics(registry))
  router.use(healthRoutes(system.ops))
  router.use(metricsRoute(registry))
  return router
}
