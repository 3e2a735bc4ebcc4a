/**
 * @module actors/main/admission
 * Which commands may enter a shard, decided on the main thread before any thread hop, so that one session cannot
 * fill the queue its neighbours share (docs/operating.md: Limits).
 *   - A session holds at most `perSession` commands in flight or queued; beyond that, 429 for that session only.
 *   - Past `shardLimit` commands in a shard, a session still gets in while it holds less than an even share of the
 *     limit among the sessions with work there (at least one command): the sessions holding more are the cause,
 *     and they get the 429. So a quiet neighbour is never refused because of a busy one.
 *   - Past twice `shardLimit` (many sessions, each within its share) the shard is truly overloaded: 503 for all.
 *
 * @example
 * const admission = new Admission({ shards: 2, perSession: 32, shardLimit: 1000 })
 * const leave = admission.enter(id, shard) // throws 429/503 GatewayErrors
 * try { await run() } finally { leave() }
 */
import { GatewayError } from '../../protocol/errors.js'

export interface AdmissionOptions {
  shards: number
  perSession: number
  shardLimit: number
}

interface ShardLoad {
  /** Commands in flight or queued. */
  commands: number
  /** Sessions with at least one of them. */
  sessions: number
}

/** `429 too many requests in flight for this session, retry in 1 s`: a session over its own cap or its share. */
const sessionBusy = (): GatewayError => new GatewayError('SESSION_BUSY')

export class Admission {
  readonly #perSession: number
  readonly #shardLimit: number
  readonly #pending = new Map<string, number>()
  readonly #shards: ShardLoad[]

  constructor({ shards, perSession, shardLimit }: AdmissionOptions) {
    this.#perSession = perSession
    this.#shardLimit = shardLimit
    this.#shards = Array.from({ length: shards }, () => ({ commands: 0, sessions: 0 }))
  }

  /** The most commands a shard ever holds (what its thread pool must accept). */
  static hardLimit(shardLimit: number): number {
    return 2 * shardLimit
  }

  /** Admits one command of session `id` on `shard`, or throws; the returned function must be called once it ends. */
  enter(id: string, shard: number): () => void {
    const load = this.#shards[shard]!
    const mine = this.#pending.get(id) ?? 0
    if (mine >= this.#perSession) throw sessionBusy()
    if (load.commands >= this.#shardLimit) {
      if (load.commands >= Admission.hardLimit(this.#shardLimit)) throw new GatewayError('OVERLOADED')
      const share = Math.max(1, Math.floor(this.#shardLimit / (load.sessions + (mine === 0 ? 1 : 0))))
      if (mine >= share) throw sessionBusy()
    }
    this.#pending.set(id, mine + 1)
    load.commands++
    if (mine === 0) load.sessions++
    let left = false
    return () => {
      if (left) return
      left = true
      load.commands--
      const now = (this.#pending.get(id) ?? 1) - 1
      if (now > 0) {
        this.#pending.set(id, now)
      } else {
        this.#pending.delete(id)
        load.sessions--
      }
    }
  }

  /** Commands in flight or queued for one session (tests, metrics). */
  pending(id: string): number {
    return this.#pending.get(id) ?? 0
  }
}
