/**
 * @module actors/main/shard-placement
 * Which shard (worker thread) runs each session, decided here once and kept for the life of the process. A thread
 * is a V8 isolate with the platform client loaded (about 60–70 MB and an idle trickle of CPU), so a new session goes
 * to a thread already running while the least loaded one holds fewer than SHARD_FILL sessions and is not busy;
 * only then does the next shard's thread start (a thread is 60-70 MB: 50 sessions get one). Once every shard
 * runs, new sessions go to the one holding fewest. A session never moves: its shard is written in its registry
 * row (`SessionRecord.shard`), which is how the shard's thread, started again after a crash, restores exactly the
 * sessions this table gives it, and how the next start places the stored ones the same way
 * (`shardOfRecord`, protocol/shard.ts). In cluster mode a node places the sessions it adopts the same way, in memory only.
 *
 * @example
 * const placement = new ShardPlacement({ shards: 2, fill: 500, isRunning, isBusy })
 * placement.place(record.id, placement.choose()) // a new session: shard 0 until it holds 500 or is busy
 * placement.shardOf(record.id) // 0, for as long as the session lives here
 */

export interface ShardPlacementOptions {
  shards: number
  /** Sessions a running shard takes before the next shard's thread starts. */
  fill: number
  /** Whether the shard's thread has started (a shard whose thread started is used before a new one starts). */
  isRunning(shard: number): boolean
  /** Whether the shard's thread has been busy for a while (shard-load.ts): new sessions then start the next one. */
  isBusy(shard: number): boolean
}

export class ShardPlacement {
  readonly #o: ShardPlacementOptions
  readonly #shardOf = new Map<string, number>()
  readonly #sessions: number[]

  constructor(o: ShardPlacementOptions) {
    this.#o = o
    this.#sessions = Array.from({ length: o.shards }, () => 0)
  }

  /** The shard of a session placed here; one not placed yet (cluster mode: an adopted session) is placed now. */
  shardOf(id: string): number {
    const shard = this.#shardOf.get(id)
    if (shard !== undefined) return shard
    return this.place(id, this.choose())
  }

  /** The shard of a session placed here; undefined for one never placed or forgotten since (gone from here). */
  find(id: string): number | undefined {
    return this.#shardOf.get(id)
  }

  /** Whether the session was placed here (and not forgotten since). */
  has(id: string): boolean {
    return this.#shardOf.has(id)
  }

  /** The shard for a new session (not recorded: `place` does that, once the session exists). */
  choose(): number {
    const { shards, fill, isRunning, isBusy } = this.#o
    let least: number | undefined
    let idle: number | undefined
    for (let shard = 0; shard < shards; shard++) {
      if (isRunning(shard) || this.#sessions[shard]! > 0) {
        if (least === undefined || this.#sessions[shard]! < this.#sessions[least]!) least = shard
      } else idle ??= shard
    }
    if (least === undefined) return idle ?? 0
    const full = this.#sessions[least]! >= fill || isBusy(least)
    return full && idle !== undefined ? idle : least
  }

  /** Records that session `id` runs on `shard`; returns the shard. */
  place(id: string, shard: number): number {
    const before = this.#shardOf.get(id)
    if (before !== undefined) return before
    this.#shardOf.set(id, shard)
    this.#sessions[shard]!++
    return shard
  }

  /** The session no longer lives here (deleted, or handed to another node). */
  forget(id: string): void {
    const shard = this.#shardOf.get(id)
    if (shard === undefined) return
    this.#shardOf.delete(id)
    this.#sessions[shard]!--
  }

  /** Sessions placed on each shard. */
  sessions(): readonly number[] {
    return this.#sessions
  }
}
