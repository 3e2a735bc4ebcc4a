/**
 * @module actors/main/shard-pools
 * The session system's threads: one `ShardPool` per shard (shard-pool.ts), how a session finds its shard, what
 * happens when a shard's thread dies (its sessions show as reconnecting; one process restores them from storage
 * itself, a cluster node starts its own sessions of that shard again), and shutting them all down on SIGTERM
 * (each shard closes its sockets without logging out, within SHARD_SHUTDOWN_MS, then the pools are destroyed).
 */
import type { Logger } from 'pino'
import type { ShardSettings } from '../settings.js'
import { newMediaSlotMemories } from '../../media/media-slots.js'
import { shardOf } from '../../protocol/shard.js'
import type { SessionPolicy } from '../../protocol/session-policy.js'
import { defaultLinkModule, workerFilename } from '../worker/worker-file.js'
import { ShardPool } from './shard-pool.js'

/** How long a shard may take to close its sockets on shutdown before its thread is terminated. */
const SHARD_SHUTDOWN_MS = 10_000

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)
  })
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer))
}

export interface ShardPoolsOptions {
  settings: ShardSettings
  log: Logger
  channelName: string
  policy: SessionPolicy
  /** Path or file URL of the platform module; default: the Baileys link. */
  linkModule?: string | undefined
  /** A shard's thread died outside shutdown (before its tasks fail). */
  onThreadLost(shard: number): void
}

export class ShardPools {
  readonly all: ShardPool[]
  readonly #shards: number
  readonly #log: Logger

  constructor(o: ShardPoolsOptions) {
    const filename = workerFilename()
    const mediaSlots = newMediaSlotMemories(o.settings.SHARDS)
    const linkModule = o.linkModule ?? defaultLinkModule()
    this.#shards = o.settings.SHARDS
    this.#log = o.log
    this.all = Array.from(
      { length: o.settings.SHARDS },
      (_, shard) =>
        new ShardPool({
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
          },
          onThreadLost: o.onThreadLost,
        }),
    )
  }

  /** The shard that owns session `id` (`hash(id) mod SHARDS`). */
  shardOf(id: string): number {
    return shardOf(id, this.#shards)
  }

  /** The pool of the shard that owns session `id`. */
  of(id: string): ShardPool {
    return this.all[this.shardOf(id)]!
  }

  /** SIGTERM: every started shard closes its sockets without logging out, then every pool is destroyed. */
  async shutdown(): Promise<void> {
    await Promise.allSettled(
      this.all
        .filter(pool => pool.started)
        .map(pool =>
          withTimeout(pool.run({ type: 'shutdown' }, { bypassLimit: true }), SHARD_SHUTDOWN_MS).catch(err =>
            this.#log.warn({ err, shard: pool.shard }, 'shard shutdown failed; terminating it'),
          ),
        ),
    )
    await Promise.allSettled(this.all.map(pool => pool.destroy()))
  }
}
