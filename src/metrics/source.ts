/**
 * @module metrics/source
 * What `/readyz` and `/metrics` read from the session system (`SessionSystem.ops`). A system without it (the HTTP
 * tests' fake) is always ready and reports HTTP and process metrics only.
 */
import type { CounterSample, LoopDelay, ShardStats } from '../protocol/thread.js'

export type Readiness = { ready: true } | { ready: false; status: 'starting' | 'stopping' }

export interface OpsSource {
  /** Ready = store open, every shard thread up and done restoring its sessions, not shutting down. */
  readiness(): Readiness
  /** Sessions by state (awaiting-qr, connecting, connected, reconnecting, ...), from the main-thread cache. */
  sessionStates(): Record<string, number>
  /** Connected sessions the platform restricts, by kind (protocol/restrictions.ts); absent: none counted. */
  restrictedSessions?(): Record<string, number>
  /** Per-shard queue depth and piscina's task wait/run times. */
  shardStats(): ShardStats[]
  /** Counter totals reported by the threads. */
  counters(): CounterSample[]
  /** Latest event-loop delay per thread. */
  loopDelays(): ReadonlyMap<string, LoopDelay>
}
