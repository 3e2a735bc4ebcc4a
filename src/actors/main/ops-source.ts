/**
 * @module actors/main/ops-source
 * The session system's `OpsSource` (metrics/source.ts): readiness from its shard threads and the restore
 * announcements, sessions by state from the snapshot cache, load from piscina, counters and loop delays from the
 * telemetry receiver.
 */
import type { ShardStats } from '../../protocol/thread.js'
import type { ShardThread } from './shard-thread.js'
import type { SnapshotCache } from './snapshot-cache.js'
import type { OpsSource } from '../../metrics/source.js'
import type { TelemetryReceiver } from '../../metrics/telemetry-receiver.js'

export interface SystemOpsParts {
  pools: readonly ShardThread[]
  /** Load and sessions of each shard. */
  stats(): ShardStats[]
  cache: SnapshotCache
  telemetry: TelemetryReceiver
  /** Shards whose thread must announce its restore before the gateway is ready (the others hold no session, or
   * started with their first new one: nothing to restore). */
  mustRestore: ReadonlySet<number>
  /** True from the start of shutdown on (the store closes at its end). */
  isClosing(): boolean
}

export function systemOps({ pools, stats, cache, telemetry, mustRestore, isClosing }: SystemOpsParts): OpsSource {
  return {
    readiness() {
      if (isClosing()) return { ready: false, status: 'stopping' }
      const up = pools.every(
        pool => !mustRestore.has(pool.shard) || (pool.threads > 0 && telemetry.isRestored(pool.shard)),
      )
      return up ? { ready: true } : { ready: false, status: 'starting' }
    },
    sessionStates: () => cache.countByState(),
    restrictedSessions: () => cache.countRestricted(),
    shardStats: stats,
    counters: () => telemetry.counters(),
    loopDelays: () => telemetry.loopDelays(),
  }
}
