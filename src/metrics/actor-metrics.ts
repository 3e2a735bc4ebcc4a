/**
 * @module metrics/actor-metrics
 * Prometheus series read from the session system at scrape time (prom-client `collect`): sessions by state,
 * per-shard load from piscina, per-thread event-loop delay, and the counters the worker threads report.
 * Nothing is pushed into the registry between scrapes.
 */
import { Counter, Gauge, type Registry } from 'prom-client'
import { THREAD_COUNTERS, type ThreadCounterKey } from './catalog.js'
import type { OpsSource } from './source.js'
import { RESTRICTION_KINDS } from '../protocol/restrictions.js'

/** Listed even at 0, so a dashboard sees every state from the first scrape. */
const SESSION_STATES = ['awaiting-qr', 'connecting', 'connected', 'reconnecting', 'disconnected'] as const

const MS_PER_S = 1_000

export function registerActorMetrics(registry: Registry, ops: OpsSource): void {
  const registers = [registry]

  new Gauge({
    name: 'gateway_sessions',
    help: 'Sessions by state',
    labelNames: ['state'],
    registers,
    collect() {
      this.reset()
      const counts = ops.sessionStates()
      for (const state of new Set([...SESSION_STATES, ...Object.keys(counts)])) this.set({ state }, counts[state] ?? 0)
    },
  })

  new Gauge({
    name: 'gateway_restricted_sessions',
    help: 'Connected sessions the platform restricts, by kind: "reachout-timelock" (no new chats until it ends), "new-chat-cap" (capped), "new-chat-cap-warning" (first or second warning)',
    labelNames: ['kind'],
    registers,
    collect() {
      this.reset()
      const counts = ops.restrictedSessions?.() ?? {}
      for (const kind of RESTRICTION_KINDS) this.set({ kind }, counts[kind] ?? 0)
    },
  })

  const shardGauge = (name: string, help: string, value: (s: ReturnType<OpsSource['shardStats']>[number]) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['shard'],
      registers,
      collect() {
        this.reset()
        for (const s of ops.shardStats()) this.set({ shard: String(s.shard) }, value(s))
      },
    })
  shardGauge('gateway_shard_queue_depth', "Tasks waiting in the shard's piscina queue", s => s.queued)
  shardGauge('gateway_shard_tasks_in_flight', 'Tasks sent to the shard and not yet answered', s => s.inFlight)
  shardGauge('gateway_shard_threads', 'Worker threads of the shard (1 when up)', s => s.threads)
  shardGauge(
    'gateway_shard_sessions',
    'Sessions the shard runs (a shard starts once the running ones hold SHARD_FILL)',
    s => s.sessions,
  )

  const taskTime = (name: string, help: string, pick: 'waitTimeMs' | 'runTimeMs') =>
    new Gauge({
      name,
      help,
      labelNames: ['shard', 'quantile'],
      registers,
      collect() {
        this.reset()
        for (const s of ops.shardStats()) {
          const shard = String(s.shard)
          this.set({ shard, quantile: '0.5' }, (s[pick].p50 || 0) / MS_PER_S)
          this.set({ shard, quantile: '0.99' }, (s[pick].p99 || 0) / MS_PER_S)
        }
      },
    })
  taskTime('gateway_shard_task_wait_seconds', "Time tasks waited in the shard's queue (piscina)", 'waitTimeMs')
  taskTime(
    'gateway_shard_task_run_seconds',
    'Time tasks ran on the shard thread, mailbox wait included (piscina)',
    'runTimeMs',
  )

  new Gauge({
    name: 'gateway_event_loop_delay_seconds',
    help: 'Event-loop delay of each thread over the last second (quantile 1 = max)',
    labelNames: ['thread', 'quantile'],
    registers,
    collect() {
      this.reset()
      for (const [thread, d] of ops.loopDelays()) {
        this.set({ thread, quantile: '0.5' }, d.p50)
        this.set({ thread, quantile: '0.99' }, d.p99)
        this.set({ thread, quantile: '1' }, d.max)
      }
    },
  })

  for (const key of Object.keys(THREAD_COUNTERS) as ThreadCounterKey[]) {
    const { name, help, labelNames } = THREAD_COUNTERS[key]
    new Counter({
      name,
      help,
      labelNames: [...labelNames],
      registers,
      collect() {
        // The totals live in the telemetry receiver; a scrape copies them.
        this.reset()
        for (const sample of ops.counters()) if (sample.key === key) this.inc(sample.labels, sample.value)
      },
    })
  }
}
