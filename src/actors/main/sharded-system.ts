/**
 * @module actors/main/sharded-system
 * The real session system (`ShardedSessionSystem`, a `SessionSystem`): sessions sharded over SHARDS worker threads,
 * a snapshot cache on the main thread for GET /session, and the session lifecycle calls. A shard's thread starts
 * with the first session placed on it (at boot for the shards that have stored sessions), not before, and a new
 * session goes to a running thread until those are full or busy (shard-placement.ts). What differs between one
 * process and a cluster node is the mode's (session-mode.ts); the system never asks which one it runs in.
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
import type { ActorCommand, ClientCommand, ReplyValue } from '../../protocol/commands.js'
import { GatewayError } from '../../protocol/errors.js'
import { openLmdbStore } from '../../storage/lmdb-store.js'
import type { SessionRecord } from '../../storage/types.js'
import { Admission } from './admission.js'
import { hashSecret } from './ids.js'
import { Shards } from './shards.js'
import { compactAtBoot, snapshotFromStore } from './boot-restore.js'
import type { ShardStats } from '../../protocol/thread.js'
import { SnapshotCache } from './snapshot-cache.js'
import type { SessionSystem } from './session-system.js'
import { ANONYMOUS, type CreationClient } from './session-creation.js'
import type { ModeRun, SessionMode } from './session-mode.js'
import { embeddedMode } from './embedded-mode.js'
import { ViewTokens } from './view-tokens.js'
import { sessionChanges } from './session-changes.js'
import { systemOps } from './ops-source.js'
import { TelemetryReceiver } from '../../metrics/telemetry-receiver.js'

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
  // The main thread's store: the mode's, else lmdb under DATA_DIR, opened (and closed) here. Each shard thread opens
  // its own (worker/shard-store.ts).
  const ownsStore = mode.store === undefined
  if (ownsStore) await compactAtBoot(settings.DATA_DIR, log)
  const store =
    mode.store ?? openLmdbStore(settings.DATA_DIR, { dataKey: settings.DATA_KEY, flush: settings.STORE_FLUSH })
  const channelName = `gateway-actors-${randomUUID()}`
  // Listen before any worker exists, so no snapshot is missed.
  const cache = new SnapshotCache(channelName)
  const telemetry = new TelemetryReceiver(channelName) // counters, loop delays, restore announcements of the threads
  // View-only QR links: they follow the snapshots (a paired session ends them) and die with the session.
  const viewTokens = new ViewTokens(id => cache.snapshotOf(id), Date.now, mode.viewTokens)
  // Shards whose thread must announce its restore before /readyz says ready (the mode's `restoreShard`). The other
  // shards start their thread when they get their first session (ShardThread.start).
  const mustRestore = new Set<number>()
  // the mode's, once it is bound to the parts below (they include the shards); no thread runs before
  let threadLost: ModeRun['threadLost'] = () => undefined
  const shards = new Shards({
    settings: shardSettings(settings),
    log,
    channelName,
    policy: mode.policy,
    linkModule: options.linkModule,
    storeEngine: mode.storeEngine,
    onThreadLost: lost => {
      telemetry.threadLost(lost)
      const inShard = (id: string) => shards.placement.has(id) && shards.shardOf(id) === lost
      cache.markDisconnected(inShard)
      threadLost(lost, inShard)
    },
  })
  const pools = shards.all
  // gone sessions free their place
  cache.onChange(event => {
    if (event.type === 'deleted') shards.placement.forget(event.id)
  })
  const poolOf = (id: string) => shards.of(id)
  const admission = new Admission({
    shards: settings.SHARDS,
    perSession: settings.MAX_PENDING_PER_SESSION,
    shardLimit: settings.MAX_QUEUE_PER_SHARD,
  })

  const inFlight = new Set<Promise<unknown>>()
  let closing: Promise<void> | undefined

  function track<T>(work: Promise<T>): Promise<T> {
    inFlight.add(work)
    const done = () => inFlight.delete(work)
    work.then(done, done)
    return work
  }

  function assertOpen(): void {
    if (closing) throw new GatewayError(mode.closedError)
  }

  /**
   * The shard of a session that may take a command here (a mode may have it wait for its link first:
   * `ModeRun.ready`): its one lookup on the command path. Placed ⇔ cached (both drop it on 'deleted'): one deleted
   * since its request came is a 404.
   */
  async function shardFor(id: string): Promise<number> {
    assertOpen()
    if (ready) await ready(id)
    const shard = shards.placement.find(id)
    if (shard === undefined) throw new GatewayError('SESSION_NOT_FOUND')
    return shard
  }

  async function startActor(id: string): Promise<void> {
    await track(poolOf(id).lifecycle({ type: 'start', id }))
  }

  const inMode = mode.open({
    settings,
    store,
    cache,
    snapshotFromStore: record => snapshotFromStore(store, record),
    pending: id => admission.pending(id),
    shardOf: id => shards.shardOf(id),
    place: (id, shard) => shards.placement.place(id, shard),
    chooseShard: () => shards.placement.choose(),
    startActor,
    releaseActor: async id => {
      await track(poolOf(id).lifecycle({ type: 'release', id }))
    },
    restoreShard: shard => {
      mustRestore.add(shard)
      pools[shard]!.start()
    },
    isClosing: () => closing !== undefined,
    log,
  })
  const { creation, ready } = inMode
  threadLost = inMode.threadLost
  // Restored sessions answer GET /session at once, before their actors publish.
  await inMode.boot()
  // What the view tokens and the waiting GET /session hear of each change (session-changes.ts)
  const changes = sessionChanges(cache, viewTokens, inMode.isMoving)

  /**
   * Runs a command of session `id` on its `shard` once admission lets it in (admission.ts: 429 or 503 otherwise).
   * Its place is given back when the command ends, or when `answered` (the HTTP answer) settles if that is later.
   */
  async function admitted<C extends ActorCommand>(
    id: string,
    shard: number,
    command: C,
    signal?: AbortSignal,
    answered?: Promise<unknown>,
  ): Promise<ReplyValue<C>> {
    const leave = admission.enter(id, shard)
    try {
      return await track(pools[shard]!.command(id, command, signal))
    } finally {
      if (answered === undefined) leave()
      else answered.then(leave, leave)
    }
  }

  async function createSession(
    client: CreationClient = ANONYMOUS,
    { proxy }: { proxy?: string } = {},
  ): Promise<{ id: string; sessionId: string }> {
    assertOpen()
    const { id, sessionId, node } = creation.draw()
    const now = Date.now()
    const shard = inMode.shardOfNew()
    const record: SessionRecord = {
      id,
      secretHash: hashSecret(sessionId),
      createdAt: now,
      unpairedSince: now,
      qrDeadline: now + Math.min(settings.SESSION_QR_LIFETIME_MS, settings.UNPAIRED_MAX_LIFETIME_MS),
      ...(proxy === undefined ? {} : { proxy }),
      ...(shard === undefined ? {} : { shard }),
    }
    await creation.register(record, client)
    if (record.shard !== undefined) shards.placement.place(id, record.shard)
    await creation.start(record, node)
    return { id, sessionId }
  }

  async function run<C extends ClientCommand>(
    id: string,
    command: C,
    signal?: AbortSignal,
    answered?: Promise<unknown>,
  ): Promise<ReplyValue<C>> {
    return admitted(id, await shardFor(id), command, signal, answered)
  }

  // Reset and delete take their place in admission like any command: a flood of them cannot crowd the shard.
  async function resetSession(id: string): Promise<void> {
    const shard = await shardFor(id)
    // A reset opens a new QR window: links to the old one end now, even if the reset itself fails.
    viewTokens.revoke(id)
    await admitted(id, shard, { type: 'resetSession' })
  }

  async function deleteSession(id: string): Promise<void> {
    await admitted(id, await shardFor(id), { type: 'deleteSession' })
    cache.remove(id) // the 'deleted' event does the same; this makes the 404 immediate for the caller
  }

  async function shutdown(): Promise<void> {
    // Let in-flight commands finish, up to the grace period.
    let timer: NodeJS.Timeout | undefined
    const grace = new Promise<void>(resolve => {
      timer = setTimeout(resolve, settings.SHUTDOWN_GRACE_MS)
    })
    await Promise.race([Promise.allSettled([...inFlight]), grace])
    clearTimeout(timer)
    // Close every socket without logging out: the sessions come back on the next start.
    await shards.shutdown()
    cache.close()
    telemetry.close()
    if (ownsStore) await store.close()
  }

  return {
    createSession,
    authenticate: (id, sessionId) => cache.authenticate(id, sessionId),
    createViewLink: id => {
      assertOpen()
      return viewTokens.issue(id)
    },
    viewQr: token => viewTokens.view(token),
    run,
    resetSession,
    deleteSession,
    watch: changes.watch,
    close: () => {
      closing ??= shutdown()
      changes.close() // after `closing` is set: a watcher that asks again sees the system closing
      return closing
    },
    shardOf: id => shards.shardOf(id),
    stats: () => shards.stats(),
    terminateShardThread: async shard => {
      await pools[shard]?.terminateThread()
    },
    ops: systemOps({
      pools,
      stats: () => shards.stats(),
      cache,
      telemetry,
      mustRestore,
      isClosing: () => closing !== undefined,
    }),
  }
}
