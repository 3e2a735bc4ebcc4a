/**
 * @module actors/worker/shard-host
 * The worker-thread side of one shard: the actors of the sessions this shard owns, keyed by id. On start it
 * restores every registered session whose row names this shard (protocol/shard.ts) — which is also how a
 * replacement thread, started by piscina after a crash, brings its sessions back from storage.
 */
import type { Logger } from 'pino'
import { GatewayError } from '../../protocol/errors.js'
import type { SessionRecord, Store } from '../../storage/types.js'
import type { MediaSendBounds } from '../../media/media-slots.js'
import type { SnapshotPublisher } from './publisher.js'
import { SessionActor } from '../session/session-actor.js'
import type { SessionSettings, ShardPlatform } from '../session/deps.js'
import { shardOfRecord } from '../../protocol/shard.js'
import type { ActorCommandType, CommandOf, ReplyValues } from '../../protocol/commands.js'
import type { SessionPolicy } from '../../protocol/session-policy.js'

const RESTORE_POLL_MS = 50

export interface ShardHostDeps {
  shard: number
  shards: number
  store: Store
  settings: SessionSettings
  logger: Logger
  publisher: SnapshotPublisher
  /** The platform module, loaded on first use (platform-loader.ts). */
  loadPlatform: () => Promise<ShardPlatform>
  /** The shard's bounds on media sends at once (media-slots.ts). */
  media: MediaSendBounds
  /** One process, or a cluster node (protocol/session-policy.ts). */
  policy: SessionPolicy
}

export class ShardHost {
  readonly #deps: ShardHostDeps
  readonly #actors = new Map<string, SessionActor>()
  /** Actors being created (the platform module may still be loading): later tasks for them wait here. */
  readonly #starting = new Map<string, Promise<void>>()
  /** Sessions handed to another node (cluster mode): a late command must not start them here again. */
  readonly #released = new Set<string>()
  #shuttingDown = false
  #restoring: Promise<void> = Promise.resolve()

  constructor(deps: ShardHostDeps) {
    this.#deps = deps
  }

  get size(): number {
    return this.#actors.size
  }

  /**
   * Starts an actor for every registered session of this shard, RESTORE_CONCURRENCY at a time: each holds its slot
   * until its link opens (or shows a QR, or fails; at most RESTORE_SLOT_MS). Two thousand sockets logging in at
   * once starve each other's handshakes and keep-alives into timeouts and retries; a bounded stream does not. A
   * command for a session not restored yet starts it at once (#actorFor). Failures are per session, logged.
   */
  restore(): Promise<void> {
    return (this.#restoring = this.#restoreAll())
  }

  async #restoreAll(): Promise<void> {
    const { store, shard, shards, logger, settings } = this.#deps
    // In cluster mode the main thread places sessions on nodes and starts each one it adopts (cluster/ownership.ts).
    if (!this.#deps.policy.restoresStored) return
    const mine = (await store.listSessions()).filter(r => shardOfRecord(r, shards) === shard)
    logger.info({ sessions: mine.length }, 'restoring sessions of this shard')
    let next = 0
    const lane = async (): Promise<void> => {
      for (let i = next++; i < mine.length && !this.#shuttingDown; i = next++) {
        const record = mine[i]!
        try {
          await this.#ensure(record)
          await this.#settled(record.id, settings.RESTORE_SLOT_MS)
        } catch (err) {
          logger.error({ err, session: record.id }, 'could not restore session')
        }
      }
    }
    await Promise.all(Array.from({ length: Math.min(settings.RESTORE_CONCURRENCY, mine.length) }, lane))
    logger.info({ sessions: mine.length }, 'restored the sessions of this shard')
  }

  /** Resolves once the session's actor is no longer connecting, or after `timeoutMs`. */
  async #settled(id: string, timeoutMs: number): Promise<void> {
    // polling a few dozen flags is cheaper and simpler than an event per actor that only the restore wants
    for (const end = Date.now() + timeoutMs; Date.now() < end && !this.#shuttingDown; ) {
      if (!this.#actors.get(id)?.isConnecting) return
      await new Promise(resolve => setTimeout(resolve, RESTORE_POLL_MS))
    }
  }

  /** Creates the actor of a registered session (a new one, or one this thread has not seen) unless it exists. */
  async start(id: string): Promise<null> {
    const record = await this.#deps.store.getSession(id)
    if (!record) throw new GatewayError('SESSION_NOT_FOUND')
    this.#released.delete(id)
    await this.#ensure(record)
    return null
  }

  /**
   * Cluster mode: stops the session here without logging out and keeps its data, for another node to run it
   * (hand-over, or this node lost its lease): the link closes, the commands in its mailbox settle, the clean stop
   * is recorded and the lease released (cluster/store/leased-runs.ts). Resolves true if the session ran here.
   */
  async release(id: string): Promise<boolean> {
    this.#released.add(id)
    await this.#starting.get(id)
    const actor = this.#actors.get(id)
    if (!actor) return false
    this.#actors.delete(id)
    await actor.shutdown(this.#deps.policy.releaseSettleMs)
    return true
  }

  /** Runs a command on the session's actor, in its mailbox order. */
  async run<K extends ActorCommandType>(
    id: string,
    command: CommandOf<K>,
    signal: AbortSignal,
  ): Promise<ReplyValues[K]> {
    const actor = await this.#actorFor(id)
    if (!actor) throw new GatewayError(this.#released.has(id) ? 'SESSION_MOVING' : 'SESSION_NOT_FOUND')
    return actor.run(command, signal)
  }

  /** The session's actor; waits for one being created, and starts a registered one this thread has not seen. */
  async #actorFor(id: string): Promise<SessionActor | undefined> {
    const starting = this.#starting.get(id)
    if (starting) await starting
    const actor = this.#actors.get(id)
    if (actor || this.#shuttingDown || this.#released.has(id)) return actor
    const record = await this.#deps.store.getSession(id)
    if (!record) return undefined
    // One process: this shard restores the rows that name it, so it starts only those (the main thread routes by the
    // same rows). A cluster node places the sessions it adopts in memory (rows name no shard there): the main
    // thread's routing is the placement, and a command that overtakes the start after a thread crash starts it here.
    if (this.#deps.policy.restoresStored && shardOfRecord(record, this.#deps.shards) !== this.#deps.shard)
      return undefined
    await this.#ensure(record)
    return this.#actors.get(id)
  }

  /** Creates and starts the actor unless it exists or is being created (a `start` may race the restore). */
  #ensure(record: SessionRecord): Promise<void> {
    const pending = this.#starting.get(record.id)
    if (pending) return pending
    if (this.#actors.has(record.id) || this.#shuttingDown) return Promise.resolve()
    const starting = this.#create(record).finally(() => this.#starting.delete(record.id))
    this.#starting.set(record.id, starting)
    return starting
  }

  async #create(record: SessionRecord): Promise<void> {
    const platform = await this.#deps.loadPlatform()
    if (this.#shuttingDown) return
    const actor = new SessionActor({
      record,
      platform,
      store: this.#deps.store,
      settings: this.#deps.settings,
      logger: this.#deps.logger,
      publisher: this.#deps.publisher,
      media: this.#deps.media,
      policy: this.#deps.policy,
      onDeleted: id => this.#actors.delete(id),
    })
    this.#actors.set(record.id, actor)
    await actor.start()
  }

  /** SIGTERM: closes every actor's link without logging out; no actor starts after this. */
  async shutdown(): Promise<null> {
    // as before the restore was staggered: let it finish (it also deletes sessions whose QR deadline passed)
    await this.#restoring.catch(() => undefined)
    this.#shuttingDown = true
    const actors = [...this.#actors.values()]
    this.#actors.clear()
    // cluster mode: the sessions' next owners wait for these leases, not for a stuck query
    await Promise.allSettled(actors.map(a => a.shutdown(this.#deps.policy.releaseSettleMs)))
    return null
  }
}
