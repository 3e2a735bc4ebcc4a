/**
 * @module http/ops
 * Operations around the API. `createApp` mounts `observer` first (the request log and the request metrics see
 * every request; one middleware and one `close` listener for both) and `metrics` (`/metrics`) after the endpoints
 * (the probes `/healthz` and `/readyz` among them, src/http/endpoints/health): their paths do not overlap, and the
 * polled `GET /session` then passes as few layers as possible (each costs it a path match; BENCHMARKS.md).
 */
import type { RequestHandler, Response, Router } from 'express'
import { requestIdOf } from './request-id.js'
import { routePattern } from './route-pattern.js'
import { createMetricsRegistry } from '../../metrics/registry.js'
import { registerClusterMetrics } from '../../metrics/cluster-metrics.js'
import type { EndpointDeps } from '../deps.js'
import { registerWaitMetrics } from '../../metrics/wait-metrics.js'
import { registerAnswerMetrics } from '../../metrics/answer-metrics.js'
import { metricsRoute, requestMetrics } from './metrics.js'
import { requestLog } from './request-log.js'

/** What the observer keeps on `res.locals` between the request's start and its response's close. */
interface Observed {
  started: number
  reqId: string
}
const OBSERVED = 'observedRequest'

export function opsParts({ system, logger, settings, cluster, waits, answers, connections }: EndpointDeps): {
  observer: RequestHandler
  metrics: Router
} {
  const registry = createMetricsRegistry(system.ops)
  if (cluster) registerClusterMetrics(registry, cluster.gauges)
  registerWaitMetrics(registry, () => waits.room.size)
  registerAnswerMetrics(registry, answers, connections)
  const log = requestLog(logger)
  const time = requestMetrics(registry)
  // One shared listener, no closure per request: every poll of GET /session passes here.
  function onClose(this: Response): void {
    const { started, reqId } = this.locals[OBSERVED] as Observed
    const route = routePattern(this.req)
    time(this.req, this, started, route)
    log(this.req, this, started, reqId, route)
  }
  const observer: RequestHandler = (req, res, next) => {
    const observed: Observed = { started: performance.now(), reqId: requestIdOf(req, res) }
    res.locals[OBSERVED] = observed
    // 'close' comes once per response: after 'finish' for every answer sent, alone when the client hung up first
    res.on('close', onClose)
    next()
  }
  return { observer, metrics: metricsRoute(registry, settings.METRICS_TOKEN) }
}
