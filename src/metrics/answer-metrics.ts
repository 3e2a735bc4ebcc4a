/**
 * @module metrics/answer-metrics
 * Answers bounded by what their clients read (src/http/answers, src/http/connections), read at scrape time: the
 * answer bytes waiting for their clients and the requests refused for them, the answers cut by the write time-out,
 * and the open connections and those refused by a cap.
 */
import { Counter, Gauge, type Registry } from 'prom-client'
import type { AnswerBudget } from '../http/answers/answer-budget.js'
import type { ConnectionGuard } from '../http/connections/connection-guard.js'

export function registerAnswerMetrics(
  registry: Registry,
  budget: AnswerBudget,
  connections: ConnectionGuard | undefined,
): void {
  const registers = [registry]
  new Gauge({
    name: 'gateway_http_answer_bytes_waiting',
    help: 'Bytes of answers written and not yet taken by their clients (bounded by ANSWER_BYTES_PER_PROCESS)',
    registers,
    collect() {
      this.set(budget.waitingBytes)
    },
  })
  new Counter({
    name: 'gateway_http_answers_refused_total',
    help: 'Reads refused with 503 while the answer bytes waiting were past ANSWER_BYTES_PER_PROCESS',
    registers,
    collect() {
      this.reset()
      this.inc(budget.refused)
    },
  })
  if (!connections) return
  new Counter({
    name: 'gateway_http_answers_cut_total',
    help: 'Connections cut because their answer waited ANSWER_WRITE_TIMEOUT_MS for the client to read it',
    registers,
    collect() {
      this.reset()
      this.inc(connections.cut)
    },
  })
  new Gauge({
    name: 'gateway_http_connections',
    help: 'Open client connections (bounded by CONNECTIONS_PER_PROCESS)',
    registers,
    collect() {
      this.set(connections.open)
    },
  })
  new Counter({
    name: 'gateway_http_connections_refused_total',
    help: 'Connections refused with 503: past CONNECTIONS_PER_CLIENT for their address, or CONNECTIONS_PER_PROCESS',
    labelNames: ['cap'] as const,
    registers,
    collect() {
      this.reset()
      this.inc({ cap: 'client' }, connections.refusedBy('client'))
      this.inc({ cap: 'process' }, connections.refusedBy('process'))
    },
  })
}
