/**
 * @module actors/main/system
 * The real session system (`ShardedSessionSystem`, a `SessionSystem`): sessions sharded over SHARDS worker threads,
 * a snapshot cache on the main thread for GET /session, and the session lifecycle calls. A shard's thread starts
 * with the first session it holds (at boot for the shards that have stored sessions), not before.
 *
 * @example
 * const system = await createShardedSessionSystem({ config, logger })
 * const { id, sessionId } = await system.createSession()
 * system.authenticate(id, sessionId)?.qrcode // '' until the first QR is rendered
 * await system.close() // SIGTERM
 */
import { randomUUID } from 'node:crypto'
import type { Logger } from 'pino'
import type { Config } from '../../config.js'
import type { ReplyValue, SessionCommand } from '../../protocol/commands.js'
import { GatewayError, sessionsFull } from '../../protocol/errors.js'
import { compactStore } from '../../storage/compaction.js'
import { openStore } from '../../storage/open-store.js'
import type { SessionRecord, Store } from '../../storage/types.js'
import { Admission } from './admission.js'
import { hashSecret, newSessionIds } from './ids.js'
import { newMediaSlotMemory } from '../../media/media-slots.js'
import { shardOf } from '../../protocol/shard.js'
import { ShardPool } from './shard-pool.js'
import type { ShardStats } from '../../protocol/thread.js'
import { initialSnapshot, SnapshotCache } from './snapshot-cache.js'
import type { SessionSystem } from './session-system.js'
import { localSessions, type LocalSessions } from './local-sessions.js'
import { UnpairedClients } from './unpaired-clients.js'
import { ViewTokens } from './view-tokens.js'
import { sessionChanges } from './session-changes.js'
import { defaultLinkModule, workerFilename } from '../worker/worker-file.js'
import { systemOps } from './ops-source.js'
import { TelemetryReceiver } from '../../metrics/telemetry-receiver.js'
import { OTHER_MESSAGE } from '../../protocol/messages.js'

export interface ShardedSessionSystemOptions {
  config: Config
  logger: Logger
  /** Main-thread store; default: lmdb under config.DATA_DIR (then closed by `close()`). Workers open their own. */
  store?: Store
  /** Path or file URL of the module exporting the LinkFactory; default: the Baileys link. Tests pass a fake. */
  linkModule?: string
  /**
   * Cluster mode (REDIS_URL): how a new session's ids are drawn (so that the session belongs on this node:
   * cluster/placement.ts). Default: any random ids.
   */
  drawIds?: () => { id: string; sessionId: string }
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
  const { config, logger } = options
  const log = logger.child({ component: 'actors' })
  const ownsStore = options.store === undefined
  if (ownsStore && !config.REDIS_URL) {
    // Before any thread maps the file: drops the pages deleted and reset sessions left behind (storage/compaction.ts).
    const compaction = await compactStore(config.DATA_DIR)
    if (compaction.compacted) log.info(compaction, 'storage compacted: removed sessions left no bytes behind')
    else if (compaction.reason === 'in use by another process')
      log.warn('storage not compacted: another process has DATA_DIR open')
  }
  const store = options.store ?? openStore(config, config.DATA_DIR, log).store // lmdb, or Redis with REDIS_URL
  const channelName = `gateway-actors-${randomUUID()}`
  // Listen before any worker exists, so no snapshot is missed.
  const cache = new SnapshotCache(channelName)
  const telemetry = new TelemetryReceiver(channelName) // counters, loop delays, restore announcements of the threads
  // View-only QR links: they follow the snapshots (a paired session ends them) and die with the session.
  const viewTokens = new ViewTokens(id => cache.snapshotOf(id))

  // Restored sessions answer GET /session at once, before their actors publish. In cluster mode none is restored
  // here: the ownership loop adopts the sessions that belong on this node (cluster/ownership.ts).
  const clustered = config.REDIS_URL !== undefined
  const now = Date.now()
  const records = clustered ? [] : await store.listSessions()
  for (const record of records) {
    if (record.qrDeadline !== null && record.qrDeadline <= now) continue // the worker deletes it on restore
    const creds =
      record.qrDeadline === null
        ? await store
            .auth(record.id)
            .readCreds()
            .catch(() => undefined)
        : undefined
    cache.add(record.secretHash, initialSnapshot(record, creds?.me?.id ?? ''))
  }

  const filename = workerFilename()
  const mediaSlots = newMediaSlotMemory()
  const linkModule = options.linkModule ?? defaultLinkModule()
  const pools = Array.from(
    { length: config.SHARDS },
    (_, shard) =>
      new ShardPool({
        filename,
        logger: log,
        data: { shard, shards: config.SHARDS, dataDir: config.DATA_DIR, config, linkModule, channelName, mediaSlots },
        onThreadLost: lost => {
          telemetry.threadLost(lost)
          const inShard = (id: string) => shardOf(id, config.SHARDS) === lost
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
      }),
  )
  // Shards whose thread must announce its restore before /readyz says ready: those that start with sessions in
  // the store (a record whose QR deadline passed too: its shard deletes it), and those that lost a thread. A shard
  // started later by its first new session has nothing to restore and never holds readiness back.
  const mustRestore = new Set<number>()
  for (const record of records) mustRestore.add(shardOf(record.id, config.SHARDS))
  // The other shards start their thread when they get their first session (ShardPool.run).
  for (const shard of mustRestore) pools[shard]!.start()
  const poolOf = (id: string): ShardPool => pools[shardOf(id, config.SHARDS)]!
  const admission = new Admission({
    shards: config.SHARDS,
    perSession: config.MAX_PENDING_PER_SESSION,
    shardLimit: config.MAX_QUEUE_PER_SHARD,
  })
  const unpaired = new UnpairedClients(config.UNPAIRED_PER_CLIENT, id => cache.snapshotOf(id)?.qrDeadline ?? undefined)

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
    if (closing) throw new GatewayError('OVERLOADED', OTHER_MESSAGE.SHUTTING_DOWN)
  }

  function assertKnown(id: string): void {
    if (local.isMoving(id)) throw new GatewayError('SESSION_MOVING')
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

  /** Runs a command of session `id` once admission lets it into the shard (admission.ts: 429 or 503 otherwise). */
  async function admitted<T>(id: string, work: () => Promise<T>): Promise<T> {
    const leave = admission.enter(id, shardOf(id, config.SHARDS))
    try {
      return await track(work())
    } finally {
      leave()
    }
  }

  async function createSession(client = 'unknown'): Promise<{ id: string; sessionId: string }> {
    assertOpen()
    // The cache holds every live session (awaiting a QR or paired): the one count of what this process hosts.
    if (config.MAX_SESSIONS > 0 && cache.size >= config.MAX_SESSIONS) throw sessionsFull(config.MAX_SESSIONS)
    unpaired.check(client)
    const { id, sessionId } = (options.drawIds ?? newSessionIds)()
    const now = Date.now()
    const record: SessionRecord = {
      id,
      secretHash: hashSecret(sessionId),
      createdAt: now,
      unpairedSince: now,
      qrDeadline: now + Math.min(config.SESSION_QR_LIFETIME_MS, config.UNPAIRED_MAX_LIFETIME_MS),
    }
    try {
      await store.putSession(record)
    } catch (err) {
      // Disk full, quota, read-only volume...: the operator's to fix, the client's to retry later (503).
      log.error({ err }, 'could not register a new session')
      throw new GatewayError('STORAGE_UNAVAILABLE')
    }
    cache.add(record.secretHash, initialSnapshot(record))
    unpaired.add(client, id)
    // Not awaited: POST /session returns before the QR exists; the QR arrives through the snapshot cache.
    track(poolOf(id).run({ type: 'start', id }, { bypassLimit: true })).catch(err =>
      log.error({ err, session: id }, 'could not start the session actor'),
    )
    return { id, sessionId }
  }

  async function run<C extends SessionCommand>(id: string, command: C, signal?: AbortSignal): Promise<ReplyValue<C>> {
    assertOpen()
    assertKnown(id)
    return admitted(id, () => poolOf(id).run({ type: 'command', id, command }, { signal })) as Promise<ReplyValue<C>>
  }

  // Reset and delete take their place in admission like any command: a flood of them cannot crowd the shard.
  async function reset(id: string): Promise<void> {
    assertOpen()
    assertKnown(id)
    // A reset opens a new QR window: links to the old one end now, even if the reset itself fails.
    viewTokens.revoke(id)
    await admitted(id, () => poolOf(id).run({ type: 'command', id, command: { type: 'reset' } }))
  }

  async function deleteSession(id: string): Promise<void> {
    assertOpen()
    assertKnown(id)
    await admitted(id, () => poolOf(id).run({ type: 'command', id, command: { type: 'delete' } }))
    cache.remove(id) // the 'deleted' event does the same; this makes the 404 immediate for the caller
  }

  async function shutdown(): Promise<void> {
    // Let in-flight commands finish, up to the grace period.
    let timer: NodeJS.Timeout | undefined
    const grace = new Promise<void>(resolve => {
      timer = setTimeout(resolve, config.SHUTDOWN_GRACE_MS)
    })
    await Promise.race([Promise.allSettled([...inFlight]), grace])
    clearTimeout(timer)
    // Close every socket without logging out: the sessions come back on the next start.
    await Promise.allSettled(pools.map(pool => pool.shutdown()))
    await Promise.allSettled(pools.map(pool => pool.destroy()))
    cache.close()
    telemetry.close()
    if (ownsStore) await store.close()
  }

  return {
    createSession,
    authenticate: (id, sessionId) => cache.authenticate(id, sessionId),
    issueViewToken: id => {
      assertOpen()
      return viewTokens.issue(id)
    },
    viewQr: token => viewTokens.view(token),
    run,
    reset,
    deleteSession,
    watch: changes.watch,
    close: () => {
      closing ??= shutdown()
      changes.close() // after `closing` is set: a watcher that asks again sees the system closing
      return closing
    },
    shardOf: id => shardOf(id, config.SHARDS),
    stats: () => pools.map(p => p.stats()),
    terminateShardThread: async shard => {
      await pools[shard]?.terminateThread()
    },
    localIds: local.localIds,
    hosts: local.hosts,
    movable: local.movable,
    connecting: local.connecting,
    adopt: local.adopt,
    release: local.release,
    ops: systemOps({ pools, cache, telemetry, mustRestore, isClosing: () => closing !== undefined }),
  }
}
