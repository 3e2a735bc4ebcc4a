/**
 * @module actors/main/system
 * The real session system (`ShardedSessionSystem`, a `SessionSystem`): sessions sharded over SHARDS worker threads,
 * a snapshot cache on the main thread for GET /session, and the session lifecycle calls. A shard's thread starts
 * with the first session placed on it (at boot for the shards that have stored sessions), not before, and a new
 * session goes to a running thread until those are full or busy (shard-placement.ts).
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
import type { ClientCommand, ReplyValue } from '../../protocol/commands.js'
import { GatewayError } from '../../protocol/errors.js'
import { openLmdbStore } from '../../storage/lmdb-store.js'
import type { SessionRecord, Store } from '../../storage/types.js'
import { Admission } from './admission.js'
import { hashSecret, newSessionIds } from './ids.js'
import { ShardPools } from './shard-pools.js'
import { compactAtBoot, restoreIntoCache } from './boot-restore.js'
import type { ShardStats, StoreEngine } from '../../protocol/thread.js'
import { initialSnapshot, SnapshotCache } from './snapshot-cache.js'
import type { SessionSystem } from './session-system.js'
import { localSessions, type LocalSessions } from './local-sessions.js'
import { ANONYMOUS, embeddedCreation, type CreationClient, type SessionCreation } from './creation.js'
import { CLUSTER_POLICY, EMBEDDED_POLICY } from '../../protocol/session-policy.js'
import { shardOfRecord } from '../../protocol/shard.js'
import { ViewTokens, type ViewTokenMinter } from './view-tokens.js'
import { sessionChanges } from './session-changes.js'
import { systemOps } from './ops-source.js'
import { TelemetryReceiver } from '../../metrics/telemetry-receiver.js'

export interface ShardedSessionSystemOptions {
  /** The actors' slice and what their shards read (actors/settings.ts); the shards get exactly theirs. */
  settings: ShardSettings
  logger: Logger
  /** Main-thread store; default: lmdb under settings.DATA_DIR (then closed by `close()`). Workers open their own
   * (worker/shard-store.ts). */
  store?: Store
  /** Where the shards store their sessions when not in lmdb under DATA_DIR (cluster mode's Redis). */
  storeEngine?: StoreEngine
  /** Path or file URL of the module exporting the LinkFactory; default: the Baileys link. Tests pass a fake. */
  linkModule?: string
  /**
   * Cluster mode (cluster/node.ts): new sessions are registered under the cluster's limits and placed on the least
   * loaded node, and no stored session starts at boot (the node's ownership loop adopts those that belong here).
   * Default: this process alone runs every session of its store.
   */
  cluster?: { creation: SessionCreation; viewTokens: ViewTokenMinter }
}

export interface ShardedSessionSystem extends SessionSystem, LocalSessions {
  /** The shard (worker thread) that owns a session. */
  shardOf(id: string): number
  /** Per-shard load, for metrics and tests. */
  stats(): ShardStats[]
  /** Test hook (GATEWAY_TEST_HOOKS only): ends one shard's worker thread as a crash would. */
  terminateShardThread(shard: number): Promise<void>
}

export async function createShardedSessionSystem(options: ShardedSessionSystemOptions): Promise<ShardedSessionSystem> {
  const { settings, logger } = options
  const log = logger.child({ component: 'actors' })
  const ownsStore = options.store === undefined
  if (ownsStore) await compactAtBoot(settings.DATA_DIR, log)
  const store =
    options.store ?? openLmdbStore(settings.DATA_DIR, { dataKey: settings.DATA_KEY, flush: settings.STORE_FLUSH }) // cluster mode passes Redis
  const channelName = `gateway-actors-${randomUUID()}`
  // Listen before any worker exists, so no snapshot is missed.
  const cache = new SnapshotCache(channelName)
  const telemetry = new TelemetryReceiver(channelName) // counters, loop delays, restore announcements of the threads
  // View-only QR links: they follow the snapshots (a paired session ends them) and die with the session.
  const viewTokens = new ViewTokens(id => cache.snapshotOf(id), Date.now, options.cluster?.viewTokens)

  // Restored sessions answer GET /session at once, before their actors publish. In cluster mode none is restored
  // here: the ownership loop adopts the sessions that belong on this node (cluster/ownership.ts).
  const clustered = options.cluster !== undefined
  const records = clustered ? [] : await restoreIntoCache(store, cache)
  const shards = new ShardPools({
    settings: shardSettings(settings),
    log,
    channelName,
    policy: clustered ? CLUSTER_POLICY : EMBEDDED_POLICY,
    linkModule: options.linkModule,
    storeEngine: options.storeEngine,
    onThreadLost: lost => {
      telemetry.threadLost(lost)
      const inShard = (id: string) => shards.placement.has(id) && shards.shardOf(id) === lost
      cache.markDisconnected(inShard)
      if (!clustered) {
        mustRestore.add(lost) // the replacement thread restores the shard: not ready until it has
        return
      }
      // cluster mode: the new thread restores nothing by itself; start this node's sessions of the shard again
      for (const id of local.localIds()) {
        if (!inShard(id)) continue
        startActor(id).catch(err => log.error({ err, session: id }, 'could not start the session actor again'))
      }
    },
  })
  const pools = shards.all
  // Stored sessions run where their rows say (the shard's own restore reads the same rows); gone ones free their place.
  for (const record of records) shards.placement.place(record.id, shardOfRecord(record, settings.SHARDS))
  cache.onChange(event => {
    if (event.type === 'deleted') shards.placement.forget(event.id)
  })
  // Shards whose thread must announce its restore before /readyz says ready: those that start with sessions in
  // the store (a record whose QR deadline passed too: its shard deletes it), and those that lost a thread. A shard
  // started later by its first new session has nothing to restore and never holds readiness back.
  const mustRestore = new Set(records.map(record => shards.shardOf(record.id)))
  // The other shards start their thread when they get their first session (ShardPool.run).
  for (const shard of mustRestore) pools[shard]!.start()
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
    work.then(
      () => inFlight.delete(work),
      () => inFlight.delete(work),
    )
    return work
  }

  function assertOpen(): void {
    if (!closing) return
    // cluster mode: the sessions go on on the other nodes (a node that forwarded the request asks again there)
    if (clustered) throw new GatewayError('SESSION_MOVING')
    throw new GatewayError('SHUTTING_DOWN')
  }

  /** The session runs here and may take a command: waits for an adopted one's link to open first. */
  async function assertKnown(id: string): Promise<void> {
    await local.ready(id)
    if (!cache.has(id)) throw new GatewayError('SESSION_NOT_FOUND')
  }

  async function startActor(id: string): Promise<void> {
    await track(poolOf(id).run({ type: 'start', id }, { bypassLimit: true }))
  }

  // Cluster mode: the sessions this node adopts and hands over (local-sessions.ts)
  const local = localSessions({
    cache,
    store,
    admission,
    startActor,
    releaseActor: async id => {
      await track(poolOf(id).run({ type: 'release', id }, { bypassLimit: true }))
    },
    isClosing: () => closing !== undefined,
  })
  // What the view tokens and the waiting GET /session hear of each change (session-changes.ts)
  const changes = sessionChanges(cache, viewTokens, local.isMoving)

  /**
   * Runs a command of session `id` once admission lets it into the shard (admission.ts: 429 or 503 otherwise). Its
   * place is given back when the work ends, or when `answered` (the HTTP answer) settles if that is later.
   */
  async function admitted<T>(id: string, work: () => Promise<T>, answered?: Promise<unknown>): Promise<T> {
    const leave = admission.enter(id, shards.shardOf(id))
    try {
      return await track(work())
    } finally {
      if (answered === undefined) leave()
      else answered.then(leave, leave)
    }
  }

  // The cache holds every live session (awaiting a QR or paired): the one count of what this process hosts.
  const creation =
    options.cluster?.creation ??
    embeddedCreation({
      settings,
      store,
      cache,
      drawIds: newSessionIds,
      log,
      async start(record) {
        cache.add(record.secretHash, initialSnapshot(record))
        // Not awaited: POST /session returns before the QR exists; the QR arrives through the snapshot cache.
        track(poolOf(record.id).run({ type: 'start', id: record.id }, { bypassLimit: true })).catch(err =>
          log.error({ err, session: record.id }, 'could not start the session actor'),
        )
      },
    })

  async function createSession(
    client: CreationClient = ANONYMOUS,
    { proxy }: { proxy?: string } = {},
  ): Promise<{ id: string; sessionId: string }> {
    assertOpen()
    const { id, sessionId, node } = creation.draw()
    const now = Date.now()
    const record: SessionRecord = {
      id,
      secretHash: hashSecret(sessionId),
      createdAt: now,
      unpairedSince: now,
      qrDeadline: now + Math.min(settings.SESSION_QR_LIFETIME_MS, settings.UNPAIRED_MAX_LIFETIME_MS),
      ...(proxy === undefined ? {} : { proxy }),
      // one process: the shard is written with the row, so the thread's own restore finds it there after a crash
      ...(clustered ? {} : { shard: shards.placement.choose() }),
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
    assertOpen()
    await assertKnown(id)
    const work = () => poolOf(id).run({ type: 'command', id, command }, { signal })
    return admitted(id, work, answered) as Promise<ReplyValue<C>>
  }

  // Reset and delete take their place in admission like any command: a flood of them cannot crowd the shard.
  async function resetSession(id: string): Promise<void> {
    assertOpen()
    await assertKnown(id)
    // A reset opens a new QR window: links to the old one end now, even if the reset itself fails.
    viewTokens.revoke(id)
    await admitted(id, () => poolOf(id).run({ type: 'command', id, command: { type: 'resetSession' } }))
  }

  async function deleteSession(id: string): Promise<void> {
    assertOpen()
    await assertKnown(id)
    await admitted(id, () => poolOf(id).run({ type: 'command', id, command: { type: 'deleteSession' } }))
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
    localIds: local.localIds,
    hosts: local.hosts,
    leaving: local.leaving,
    movable: local.movable,
    connecting: local.connecting,
    adopt: local.adopt,
    release: local.release,
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
