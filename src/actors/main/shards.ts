/**
 * @module actors/main/shards
 * The session system's threads: one `ShardThread` per shard (shard-thread.ts), which shard runs each session
 * (shard-placement.ts: a thread starts only once the running ones are full or busy), what happens when a shard's thread dies (its sessions show as reconnecting; one process restores them from storage
 * itself, a cluster node starts its own sessions of that shard again), and shutting them all down on SIGTERM
 * (each shard closes its sockets without logging out, within SHARD_SHUTDOWN_MS, then the pools are destroyed).
 */
import type { Logger } from 'pino'
import type { ShardSettings } from '../settings.js'
import { newMediaSlotMemories } from '../../media/media-slots.js'
import type { SessionPolicy } from '../../protocol/session-policy.js'
import { defaultLinkModule, workerFilename } from '../worker/worker-file.js'
import type { ShardStats, StoreEngine } from '../../protocol/thread.js'
import { ShardThread } from './shard-thread.js'
import { ShardPlacement } from './shard-placement.js'

/** How long a shard may take to close its sockets on shutdown before its thread is terminated. */
const SHARD_SHUTDOWN_MS = 10_000
/** How often each running shard's load is sampled (shard-thread.ts: busy after two busy samples in a row). */
const LOAD_SAMPLE_MS = 5_000

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)
  })
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer))
}

export interface ShardsOptions {
  settings: ShardSettings
  log: Logger
  channelName: string
  policy: SessionPolicy
  /** Where the shards store their sessions when not in lmdb (cluster mode's Redis). */
  storeEngine?: StoreEngine | undefined
  /** Path or file URL of the platform module; default: the Baileys link. */
  linkModule?: string | undefined
}

export class Shards {
  readonly all: ShardThread[]
  readonly placement: ShardPlacement
  readonly #log: Logger
  readonly #sampler: NodeJS.Timeout
  /** Who hears that a shard's thread died (`onThreadLost`). */
  readonly #threadLostListeners: ((shard: number) => void)[] = []

  constructor(o: ShardsOptions) {
    const filename = workerFilename()
    const mediaSlots = newMediaSlotMemories(o.settings.SHARDS)
    const linkModule = o.linkModule ?? defaultLinkModule()
    this.#log = o.log
    this.all = Array.from(
      { length: o.settings.SHARDS },
      (_, shard) =>
        new ShardThread({
          filename,
          logger: o.log,
          data: {
            shard,
            shards: o.settings.SHARDS,
            settings: o.settings,
            linkModule,
            channelName: o.channelName,
            mediaSlots,
            policy: o.policy,
            storeEngine: o.storeEngine,
          },
          onThreadLost: lost => {
            for (const listener of this.#threadLostListeners) listener(lost)
          },
        }),
    )
    this.placement = new ShardPlacement({
      shards: o.settings.SHARDS,
      fill: o.settings.SHARD_FILL,
      isRunning: shard => this.all[shard]!.started,
      isBusy: shard => this.all[shard]!.busy,
    })
    this.#sampler = setInterval(() => {
      for (const pool of this.all) pool.sampleLoad()
    }, LOAD_SAMPLE_MS).unref()
  }

  /**
   * Calls `listener` when a shard's thread dies outside shutdown, before its tasks fail. No thread runs before the
   * first session is placed, so the session system subscribes once its mode is bound, before the mode's boot.
   */
  onThreadLost(listener: (shard: number) => void): void {
    this.#threadLostListeners.push(listener)
  }

  /** The shard that runs session `id` (placed now if it was not yet: shard-placement.ts). */
  shardOf(id: string): number {
    return this.placement.shardOf(id)
  }

  /** The pool of the shard that owns session `id`. */
  of(id: string): ShardThread {
    return this.all[this.shardOf(id)]!
  }

  /** Per-shard load and sessions, for metrics and tests. */
  stats(): ShardStats[] {
    const sessions = this.placement.sessions()
    return this.all.map(pool => ({ ...pool.stats(), sessions: sessions[pool.shard]! }))
  }

  /** SIGTERM: every started shard closes its sockets without logging out, then every pool is destroyed. */
  async shutdown(): Promise<void> {
    clearInterval(this.#sampler)
    await Promise.allSettled(
      this.all
        .filter(pool => pool.started)
        .map(pool =>
          withTimeout(pool.lifecycle({ type: 'shutdown' }), SHARD_SHUTDOWN_MS).catch(err =>
            this.#log.warn({ err, shard: pool.shard }, 'shard shutdown failed; terminating it'),
          ),
        ),
    )
    await Promise.allSettled(this.all.map(pool => pool.destroy()))
  }
}
