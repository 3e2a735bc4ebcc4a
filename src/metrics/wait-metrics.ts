/**
 * @module metrics/wait-metrics
 * The waiting GET /session and GET /session/qr (src/http/session-wait): how many requests wait for a change now,
 * read at scrape time, beside the bound they count against (SESSION_WAITS_PER_PROCESS).
 */
import { Gauge, type Registry } from 'prom-client'

export function registerWaitMetrics(registry: Registry, waiting: () => number): void {
  new Gauge({
    name: 'gateway_session_waits',
    help: 'Requests waiting for a session to change (GET /session and GET /session/qr with If-None-Match and wait)',
    registers: [registry],
    collect() {
      this.set(waiting())
    },
  })
}
