/**
 * @module actors/main/sharded-system
 * The real session system (`ShardedSessionSystem`, a `SessionSystem`): sessions sharded over SHARDS worker threads,
 * a snapshot cache on the main thread for GET /session, and the session lifecycle calls. A shard's thread starts
 * with the first session placed on it (at boot for the shards that have stored sessions), not before, and a new
 * session goes to a running thread until those are full or busy (shard-placement.ts). What differs between one
 * process and a cluster node is the mode's (session-mode.ts); the system never asks which one it runs in.
 *
 * This file is the façade: it builds the system's parts in the order they depend on each other and offers them as
 * one `SessionSystem`. Each part is its own module: boot and thread loss (system-boot.ts), the command path
 * (command-path.ts), a new session's steps (new-session.ts), in-flight work and shutdown (system-shutdown.ts).
 *
 * @example
 * const system = await createShardedSessionSystem({ settings, logger })
 * const { id, sessionId } = await system.createSession()
 * system.authenticate(id, sessionId)?.qrcode // '' until the first QR is rendered
 * await system.close() // SIGTERM
 */
import { randomUUID } from 'node:crypto'
import type { Logger } from 'pino'
import { shardSettings, type ShardSettings } from '../settings.js'
import type { ShardStats } from '../../protocol/thread.js'
import { TelemetryReceiver } from '../../metrics/telemetry-receiver.js'
import { Admission } from './admission.js'
import { CommandPath } from './command-path.js'
import { embeddedMode } from './embedded-mode.js'
import { createNewSession } from './new-session.js'
import { systemOps } from './ops-source.js'
import { sessionChanges } from './session-changes.js'
import type { SessionMode } from './session-mode.js'
import type { SessionSystem } from './session-system.js'
import { Shards } from './shards.js'
import { SnapshotCache } from './snapshot-cache.js'
import { bootMode, openMainStore } from './system-boot.js'
import { SystemShutdown } from './system-shutdown.js'
import { ViewTokens } from './view-tokens.js'

export interface ShardedSessionSystemOptions {
  /** The actors' slice and what their shards read (actors/settings.ts); the shards get exactly theirs. */
  settings: ShardSettings
  logger: Logger
  /** Path or file URL of the module exporting the LinkFactory; default: the Baileys link. Tests pass a fake. */
  linkModule?: string
  /**
   * What the system does differently in its mode (session-mode.ts). Default: one process that runs every session
   * of its store (embedded-mode.ts); cluster mode gives its own (src/cluster/).
   */
  mode?: SessionMode
}

export interface ShardedSessionSystem extends SessionSystem {
  /** The shard (worker thread) that owns a session. */
  shardOf(id: string): number
  /** Per-shard load, for metrics and tests. */
  stats(): ShardStats[]
  /** Test hook (GATEWAY_TEST_HOOKS only): ends one shard's worker thread as a crash would. */
  terminateShardThread(shard: number): Promise<void>
}

export async function createShardedSessionSystem(options: ShardedSessionSystemOptions): Promise<ShardedSessionSystem> {
  const { settings, logger, mode = embeddedMode() } = options
  const log = logger.child({ component: 'actors' })
  const mainStore = await openMainStore(settings, mode, log)
  const { store } = mainStore
  // What the threads publish on: listened to before any worker exists, so no snapshot is missed.
  const channelName = `gateway-actors-${randomUUID()}`
  const cache = new SnapshotCache(channelName)
  const telemetry = new TelemetryReceiver(channelName) // counters, loop delays, restore announcements of the threads
  // View-only QR links: they follow the snapshots (a paired session ends them) and die with the session.
  const viewTokens = new ViewTokens(id => cache.snapshotOf(id), Date.now, mode.viewTokens)
  const shards = new Shards({
    settings: shardSettings(settings),
    log,
    channelName,
    policy: mode.policy,
    linkModule: options.linkModule,
    storeEngine: mode.storeEngine,
  })
  // gone sessions free their place
  cache.onChange(event => {
    if (event.type === 'deleted') shards.placement.forget(event.id)
  })
  const admission = new Admission({
    shards: settings.SHARDS,
    perSession: settings.MAX_PENDING_PER_SESSION,
    shardLimit: settings.MAX_QUEUE_PER_SHARD,
  })
  const shutdown = new SystemShutdown({
    closedError: mode.closedError,
    graceMs: settings.SHUTDOWN_GRACE_MS,
    release: async () => {
      // Close every socket without logging out: the sessions come back on the next start.
      await shards.shutdown()
      cache.close()
      telemetry.close()
      if (mainStore.owned) await store.close()
    },
  })
  // Restored sessions answer GET /session at once, before their actors publish.
  const booted = await bootMode({ settings, mode, store, cache, telemetry, shards, admission, shutdown, log })
  // What the view tokens and the waiting GET /session hear of each change (session-changes.ts)
  const changes = sessionChanges(cache, viewTokens, booted.run.isMoving)
  const commands = new CommandPath({
    placement: shards.placement,
    threads: shards.all,
    admission,
    shutdown,
    ready: booted.run.ready,
    viewTokens,
    cache,
  })
  const newSessionParts = { settings, mode: booted.run, placement: shards.placement, shutdown }

  return {
    createSession: (client, sessionOptions) => createNewSession(newSessionParts, client, sessionOptions),
    authenticate: (id, sessionId) => cache.authenticate(id, sessionId),
    createViewLink: id => {
      shutdown.assertOpen()
      return viewTokens.issue(id)
    },
    viewQr: token => viewTokens.view(token),
    run: commands.run,
    read: commands.read,
    resetSession: id => commands.resetSession(id),
    deleteSession: id => commands.deleteSession(id),
    watch: changes.watch,
    close: () => {
      const closing = shutdown.close()
      changes.close() // after shutdown began: a watcher that asks again sees the system closing
      return closing
    },
    shardOf: id => shards.shardOf(id),
    stats: () => shards.stats(),
    terminateShardThread: async shard => {
      await shards.all[shard]?.terminateThread()
    },
    ops: systemOps({
      pools: shards.all,
      stats: () => shards.stats(),
      cache,
      telemetry,
      mustRestore: booted.mustRestore,
      isClosing: () => shutdown.isClosing(),
    }),
  }
}
