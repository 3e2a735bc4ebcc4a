/**
 * @module http/ops/metrics
 * The HTTP side of the metrics: express-prom-bundle times every API request into
 * `gateway_http_request_duration_seconds{method, route, status_code}` (route = the pattern, see route-pattern.ts;
 * the histogram's `_count` is the request count), and `GET /metrics` serves the registry in Prometheus text format.
 * Probes and scrapes are not timed.
 */
import { Router, type RequestHandler } from 'express'
import promBundle from 'express-prom-bundle'
import type { Registry } from 'prom-client'
import { METRICS_PATH, OPS_PATHS } from './paths.js'
import { routePattern } from './route-pattern.js'

/** Seconds; sends wait for the platform's ack (up to ACK_TIMEOUT_MS), GET /session answers in a millisecond. */
const BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]

export function requestMetrics(registry: Registry): RequestHandler {
  return promBundle({
    promRegistry: registry,
    autoregister: false,
    includeUp: false,
    includeMethod: true,
    includeStatusCode: true,
    httpDurationMetricName: 'gateway_http_request_duration_seconds',
    buckets: BUCKETS,
    customLabels: { route: '' },
    transformLabels: (labels, req) => { labels.route = routePattern(req) },
    bypass: req => OPS_PATHS.has(req.path),
  })
}

export function metricsRoute(registry: Registry): Router {
  const router = Router()
  router.get(METRICS_PATH, async (_req, res) => {
    const text = await registry.metrics()
    res.setHeader('content-type', registry.contentType)
    res.send(text)
  })
  return router
}
