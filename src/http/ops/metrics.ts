/**
 * @module http/ops/metrics
 * The HTTP side of the metrics: every API request is timed into
 * `gateway_http_request_duration_seconds{method, route, status_code}` (route = the pattern, see route-pattern.ts;
 * the histogram's `_count` is the request count), and `GET /metrics` serves the registry in Prometheus text format,
 * to anyone or, with METRICS_TOKEN set, only to a scraper sending that bearer token (the series tell tenant counts,
 * queue depths and the Node version).
 * Probes, scrapes, pages and their assets are not timed (page-paths.ts). The labelled series are looked up once per
 * label set and kept, in a histogram that then costs a request a bucket search (metrics/series-histogram.ts).
 */
import { Router, type Request, type Response } from 'express'
import type { Registry } from 'prom-client'
import { type HistogramSeries, SeriesHistogram } from '../../metrics/series-histogram.js'
import { requireBearerToken } from '../../security/bearer-token.js'
import { METRICS_PATH } from './paths.js'
import { isApiPath } from './page-paths.js'

/** Seconds; sends wait for the platform's ack (up to ACK_TIMEOUT_MS), GET /session answers in a millisecond. */
const BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]

/** Records one request once its response closed; `started` is its performance.now(), `route` its route pattern.
 * Only API requests are timed. */
export function requestMetrics(
  registry: Registry,
): (req: Request, res: Response, started: number, route: string) => void {
  const histogram = new SeriesHistogram({
    name: 'gateway_http_request_duration_seconds',
    help: 'duration of HTTP requests in seconds, by method, route pattern and status',
    labelNames: ['method', 'route', 'status_code'],
    buckets: BUCKETS,
    registry,
  })
  // bounded: methods × route patterns × statuses the app can produce
  const series = new Map<string, HistogramSeries>()
  return (req, res, started, route) => {
    if (!isApiPath(req.path)) return
    const key = `${req.method} ${route} ${res.statusCode}`
    let s = series.get(key)
    if (!s) series.set(key, (s = histogram.series({ method: req.method, route, status_code: String(res.statusCode) })))
    s.observe((performance.now() - started) / 1000)
  }
}

/** `token` (METRICS_TOKEN): when set, a scrape without `authorization: Bearer <token>` is 401 and sees nothing. */
export function metricsRoute(registry: Registry, token: string | undefined): Router {
  const router = Router()
  router.get(METRICS_PATH, requireBearerToken(token), async (_req, res) => {
    const text = await registry.metrics()
    res.setHeader('content-type', registry.contentType)
    res.send(text)
  })
  return router
}
