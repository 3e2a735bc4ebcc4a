/**
 * @module metrics/registry
 * One prom-client registry per app: the process's default metrics (CPU, memory, GC, main event loop), the HTTP
 * request histogram (added by the HTTP middleware, `src/http/ops/metrics.ts`) and, with a sharded session system, its
 * sessions, shards, threads and platform counters.
 */
import { collectDefaultMetrics, Registry } from 'prom-client'
import { registerActorMetrics } from './actor-metrics.js'
import type { OpsSource } from './source.js'

/** prom-client samples the main loop's delay with a timer of its own, every 10 ms unless told: 100 wake-ups a
 * second of an idle gateway (about 0.6 % of a core, measured) for `nodejs_eventloop_lag_*`, whose percentiles span
 * the process's whole life anyway. Once a second is enough for those; `gateway_event_loop_delay_seconds` is the
 * per-thread figure over the last second (metrics/event-loop.ts). */
export const DEFAULT_METRICS_LOOP_PRECISION_MS = 1_000

export function createMetricsRegistry(ops: OpsSource | undefined): Registry {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: DEFAULT_METRICS_LOOP_PRECISION_MS })
  if (ops) registerActorMetrics(registry, ops)
  return registry
}
