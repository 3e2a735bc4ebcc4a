/**
 * @module actors/main/system-boot
 * How the session system comes up and what it does when a shard's thread dies, in the order it happens:
 *   1. the main thread's store: the mode's, else lmdb under DATA_DIR, compacted first (storage/compaction.ts: the
 *      pages deleted and reset sessions left behind) and then opened here (and closed by the system). Each shard
 *      thread opens its own (worker/shard-store.ts);
 *   2. the mode bound to the system's parts (session-mode.ts `open`): how a session's actor starts and stops, which
 *      shard a session runs on, which shards restore at start;
 *   3. thread loss: the shard's sessions show as reconnecting at once, then the mode recovers them (one process:
 *      the replacement thread restores them from their rows; a cluster node starts its own again);
 *   4. the mode's boot: the stored sessions it runs go into the snapshot cache (GET /session answers at once), and
 *      their shards start their thread and hold /readyz until they announce their restore.
 */
import type { Logger } from 'pino'
import type { ActorSettings, ShardSettings } from '../settings.js'
import { compactStore } from '../../storage/compaction.js'
import { openLmdbStore } from '../../storage/lmdb-store.js'
import type { Store } from '../../storage/types.js'
import type { TelemetryReceiver } from '../../metrics/telemetry-receiver.js'
import type { Admission } from './admission.js'
import { snapshotFromStore } from './stored-snapshots.js'
import type { ModeRun, SessionMode } from './session-mode.js'
import type { Shards } from './shards.js'
import type { SnapshotCache } from './snapshot-cache.js'
import type { SystemShutdown } from './system-shutdown.js'

export interface MainStore {
  store: Store
  /** Whether the system opened the store and so closes it (the mode's store is the mode's to close). */
  owned: boolean
}

/** The main thread's store: the mode's, else lmdb under DATA_DIR, compacted before any thread maps it. */
export async function openMainStore(settings: ShardSettings, mode: SessionMode, log: Logger): Promise<MainStore> {
  if (mode.store !== undefined) return { store: mode.store, owned: false }
  const compaction = await compactStore(settings.DATA_DIR)
  if (compaction.compacted) log.info(compaction, 'storage compacted: removed sessions left no bytes behind')
  else if (compaction.reason === 'in use by another process')
    log.warn('storage not compacted: another process has DATA_DIR open')
  const store = openLmdbStore(settings.DATA_DIR, { dataKey: settings.DATA_KEY, flush: settings.STORE_FLUSH })
  return { store, owned: true }
}

/** What the mode is bound to (steps 2 to 4). */
export interface BootParts {
  settings: ActorSettings
  mode: SessionMode
  store: Store
  cache: SnapshotCache
  telemetry: TelemetryReceiver
  shards: Shards
  /** Commands admitted per session, which a cluster node reads before it lets a session go. */
  admission: Admission
  /** Tracks the actors' lifecycle calls, and says when the system is closing. */
  shutdown: SystemShutdown
  log: Logger
}

export interface BootedMode {
  /** The mode bound to this system. */
  run: ModeRun
  /**
   * Shards whose thread must announce its restore before /readyz says ready (the mode's `restoreShard`). The other
   * shards start their thread when they get their first session (ShardThread.start).
   */
  mustRestore: ReadonlySet<number>
}

/** Binds the mode, subscribes to thread loss, and runs the mode's boot (steps 2 to 4). */
export async function bootMode(parts: BootParts): Promise<BootedMode> {
  const { settings, mode, store, cache, telemetry, shards, admission, shutdown, log } = parts
  const mustRestore = new Set<number>()
  const run = mode.open({
    settings,
    store,
    cache,
    snapshotFromStore: record => snapshotFromStore(store, record),
    pending: id => admission.pending(id),
    shardOf: id => shards.shardOf(id),
    place: (id, shard) => shards.placement.place(id, shard),
    chooseShard: () => shards.placement.choose(),
    startActor: async id => {
      await shutdown.track(shards.of(id).lifecycle({ type: 'start', id }))
    },
    releaseActor: async id => {
      await shutdown.track(shards.of(id).lifecycle({ type: 'release', id }))
    },
    restoreShard: shard => {
      mustRestore.add(shard)
      shards.all[shard]!.start()
    },
    isClosing: () => shutdown.isClosing(),
    log,
  })
  // No thread has run yet: the first starts in the mode's boot below, or with the first new session.
  shards.onThreadLost(lost => {
    telemetry.threadLost(lost)
    const inShard = (id: string) => shards.placement.has(id) && shards.shardOf(id) === lost
    cache.markDisconnected(inShard)
    run.threadLost(lost, inShard)
  })
  await run.boot()
  return { run, mustRestore }
}
