/**
 * @module actors/worker/shard-store
 * The store a shard thread keeps its sessions in: lmdb under DATA_DIR by default. A mode that keeps them elsewhere
 * (cluster mode: Redis, cluster/store/shard-store.ts) names a module in the thread contract
 * (`ShardWorkerData.storeEngine`), loaded here by path, so that this thread runs no code of that mode unless it is
 * on, and the shard's actors never ask which engine they write to.
 */
import { pathToFileURL } from 'node:url'
import type { Logger } from 'pino'
import { openLmdbStore } from '../../storage/lmdb-store.js'
import type { StoreSettings } from '../../storage/settings.js'
import type { Store } from '../../storage/types.js'
import type { StoreEngine } from '../../protocol/thread.js'
import type { ShardPlatform } from '../session/deps.js'

export type { ShardPlatform } from '../session/deps.js'

/** A shard thread's store, and what its engine adds around the shard's platform. */
export interface ShardStore {
  store: Store
  /** Wraps how the shard loads its platform (cluster mode: each link runs only under its session's lease). */
  platform(load: () => Promise<ShardPlatform>): () => Promise<ShardPlatform>
  /** Stops what the engine runs beside the store (cluster mode: renewing leases), before the store closes. */
  stop(): void
}

/** What a store engine's module exports. `settings` is the engine's own, as `StoreEngine.settings` carried it. */
export interface StoreEngineModule {
  openShardStore(settings: unknown, storage: StoreSettings, logger: Logger): ShardStore
}

export async function openShardStore(
  settings: StoreSettings,
  engine: StoreEngine | undefined,
  logger: Logger,
): Promise<ShardStore> {
  if (engine === undefined)
    return {
      store: openLmdbStore(settings.DATA_DIR, { dataKey: settings.DATA_KEY, flush: settings.STORE_FLUSH }),
      platform: load => load,
      stop: () => undefined,
    }
  const url = engine.module.startsWith('file:') ? engine.module : pathToFileURL(engine.module).href
  const mod = (await import(url)) as StoreEngineModule
  return mod.openShardStore(engine.settings, settings, logger)
}
