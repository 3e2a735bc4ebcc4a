/**
 * @module metrics/registry
 * One prom-client registry per app: the process's default metrics (CPU, memory, GC, main event loop), the HTTP
 * request histogram (added by the HTTP middleware, `src/http/ops/metrics.ts`) and, with a sharded session system, its
 * sessions, shards, threads and platform counters.
 */
import { collectDefaultMetrics, Registry } from 'prom-client'
import { registerActorMetrics } from './actor-metrics.js'
import type { OpsSource } from './source.js'

export function createMetricsRegistry(ops: OpsSource | undefined): Registry {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  if (ops) registerActorMetrics(registry, ops)
  return registry
}
