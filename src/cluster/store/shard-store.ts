/**
 * @module cluster/store/shard-store
 * Cluster mode's store engine (actors/worker/shard-store.ts): the sessions in Redis, every write of a session's
 * rows fenced by the lease this thread holds on it (lease.ts), and each link run only under that lease
 * (leased-runs.ts). Each shard thread loads this module by path (`shardStoreEngine`); the main thread opens the
 * same store for the registry (cluster/cluster-node.ts). The Redis client is loaded only here, so a single-node
 * process never loads it.
 */
import type { Logger } from 'pino'
import type { StoreEngine } from '../../protocol/thread.js'
import type { ShardStore } from '../../actors/worker/shard-store.js'
import type { StoreSettings } from '../../storage/settings.js'
import type { ClusterSettings } from '../settings.js'
import { LeaseKeeper } from './lease.js'
import { withLeases } from './leased-runs.js'
import { openRedisStore, type RedisStore } from './redis-store.js'

/** What cluster mode's store reads of cluster mode's settings: where Redis is and how its leases are held. */
export type ClusterStoreSettings = Pick<
  ClusterSettings,
  'REDIS_URL' | 'NODE_ID' | 'CLUSTER_LEASE_TTL_MS' | 'CLUSTER_RENEW_MS'
>

/** The engine the shard threads of a cluster node load, with its settings (plain data: they cross to the thread). */
export const shardStoreEngine = (settings: ClusterStoreSettings): StoreEngine => ({
  module: import.meta.url,
  settings: {
    REDIS_URL: settings.REDIS_URL,
    NODE_ID: settings.NODE_ID,
    CLUSTER_LEASE_TTL_MS: settings.CLUSTER_LEASE_TTL_MS,
    CLUSTER_RENEW_MS: settings.CLUSTER_RENEW_MS,
  } satisfies ClusterStoreSettings,
})

/** The Redis store of one thread and the keeper of that thread's leases, which fences every write of the store. */
export function openClusterStore(
  settings: ClusterStoreSettings & Pick<StoreSettings, 'DATA_KEY'>,
  logger?: Logger,
): { store: RedisStore; leases: LeaseKeeper } {
  let lastError = ''
  const onError = (err: unknown) => {
    // node-redis retries by itself; say so once per distinct failure, not on every retry
    const message = err instanceof Error ? err.message : String(err)
    if (message !== lastError) logger?.warn({ err }, 'Redis connection error')
    lastError = message
  }
  const leases: LeaseKeeper = new LeaseKeeper(() => store.connection(), {
    node: settings.NODE_ID,
    ttlMs: settings.CLUSTER_LEASE_TTL_MS,
    renewMs: settings.CLUSTER_RENEW_MS,
    onRenewError: onError,
  })
  const store = openRedisStore(settings.REDIS_URL!, { dataKey: settings.DATA_KEY, fence: leases, onError })
  return { store, leases }
}

/** The engine's entry in a shard thread (`StoreEngineModule`). */
export function openShardStore(engine: unknown, storage: StoreSettings, logger: Logger): ShardStore {
  const { store, leases } = openClusterStore(
    { ...(engine as ClusterStoreSettings), DATA_KEY: storage.DATA_KEY },
    logger,
  )
  return {
    store,
    platform: load => withLeases(load, leases, logger),
    stop: () => leases.stop(),
  }
}
