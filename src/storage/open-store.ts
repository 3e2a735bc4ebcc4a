/**
 * @module storage/open-store
 * Which engine a process (main thread or shard thread) stores in: lmdb under DATA_DIR by default; with REDIS_URL,
 * Redis (`redis/redis-store.ts`), and then the thread also gets the `LeaseKeeper` that holds its sessions' leases
 * and fences every write of their rows (storage/redis/lease.ts). The Redis client is only loaded in that case.
 */
import type { Logger } from 'pino'
import type { StoreSettings } from './settings.js'
import { LeaseKeeper } from './redis/lease.js'
import { openLmdbStore } from './lmdb-store.js'
import { openRedisStore } from './redis/redis-store.js'
import type { Store } from './types.js'

export interface OpenedStore {
  store: Store
  /** Cluster mode only: the leases of this thread's sessions. */
  leases: LeaseKeeper | undefined
}

export function openStore(settings: StoreSettings, logger?: Logger): OpenedStore {
  if (!settings.REDIS_URL)
    return {
      store: openLmdbStore(settings.DATA_DIR, { dataKey: settings.DATA_KEY, flush: settings.STORE_FLUSH }),
      leases: undefined,
    }
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
  const store = openRedisStore(settings.REDIS_URL, { dataKey: settings.DATA_KEY, fence: leases, onError })
  return { store, leases }
}
