/**
 * @module actors/main/command-path
 * How a client's command (or read: `read`) reaches its session's actor and comes back, in four steps: the session's
 * shard (looked up once, `#shardFor`), admission (admission.ts: 429 or 503 before any thread hop), the shard's thread
 * (shard-thread.ts `command`), and the reply, typed by the command (`ReplyValue<C>`, protocol/commands.ts), so a
 * handler that answers the wrong type does not compile. Reset and delete take the same path: they take their place in
 * admission like any command, so a flood of them cannot crowd the shard.
 *
 * This is the hot path: nothing here allocates per command beyond what admission and the shard's thread need.
 *
 * @example
 * const commands = new CommandPath({ placement, threads, admission, shutdown, ready, viewTokens, cache })
 * const groups = await commands.run(id, { type: 'listGroups' }) // typed by the command: ReplyValue<{ type: 'listGroups' }>
 */
import type { ActorCommand, ReplyValue } from '../../protocol/commands.js'
import { GatewayError } from '../../protocol/errors.js'
import type { Admission } from './admission.js'
import type { ModeRun } from './session-mode.js'
import type { SessionSystem } from './session-system.js'
import type { ShardPlacement } from './shard-placement.js'
import type { ShardThread } from './shard-thread.js'
import type { SnapshotCache } from './snapshot-cache.js'
import type { SystemShutdown } from './system-shutdown.js'
import type { ViewTokens } from './view-tokens.js'

export interface CommandPathParts {
  /** Which shard runs each session. */
  placement: ShardPlacement
  /** One thread per shard, by shard number. */
  threads: readonly ShardThread[]
  admission: Admission
  /** Refuses commands once shutdown begins, and tracks the ones that run. */
  shutdown: SystemShutdown
  /** The mode's wait before a session may take a command here; absent: none (one process). */
  ready: ModeRun['ready']
  /** A reset revokes the session's view links. */
  viewTokens: ViewTokens
  /** A delete drops the session from GET /session at once. */
  cache: SnapshotCache
}

export class CommandPath {
  readonly #placement: ShardPlacement
  readonly #threads: readonly ShardThread[]
  readonly #admission: Admission
  readonly #shutdown: SystemShutdown
  readonly #ready: ModeRun['ready']
  readonly #viewTokens: ViewTokens
  readonly #cache: SnapshotCache

  constructor(parts: CommandPathParts) {
    this.#placement = parts.placement
    this.#threads = parts.threads
    this.#admission = parts.admission
    this.#shutdown = parts.shutdown
    this.#ready = parts.ready
    this.#viewTokens = parts.viewTokens
    this.#cache = parts.cache
  }

  /** A client's command (SessionSystem.run: one function for the system's life, none per command). */
  readonly run: SessionSystem['run'] = async (id, command, signal, answered) =>
    this.#admitted(id, await this.#shardFor(id), command, signal, answered)

  /** A client's read, answered as its JSON bytes (SessionSystem.read): the same path as a command. */
  readonly read: SessionSystem['read'] = async (id, command, signal, answered) => {
    const shard = await this.#shardFor(id)
    return this.#held(id, shard, () => this.#threads[shard]!.read(id, command, signal), answered)
  }

  async resetSession(id: string): Promise<void> {
    const shard = await this.#shardFor(id)
    // A reset opens a new QR window: links to the old one end now, even if the reset itself fails.
    this.#viewTokens.revoke(id)
    await this.#admitted(id, shard, { type: 'resetSession' })
  }

  async deleteSession(id: string): Promise<void> {
    await this.#admitted(id, await this.#shardFor(id), { type: 'deleteSession' })
    this.#cache.remove(id) // the 'deleted' event does the same; this makes the 404 immediate for the caller
  }

  /**
   * The shard of a session that may take a command here (a mode may have it wait for its link first:
   * `ModeRun.ready`): its one lookup on the command path. Placed ⇔ cached (both drop it on 'deleted'): one deleted
   * since its request came is a 404.
   */
  async #shardFor(id: string): Promise<number> {
    this.#shutdown.assertOpen()
    if (this.#ready) await this.#ready(id)
    const shard = this.#placement.find(id)
    if (shard === undefined) throw new GatewayError('SESSION_NOT_FOUND')
    return shard
  }

  /**
   * Runs a command of session `id` on its `shard` once admission lets it in (admission.ts: 429 or 503 otherwise).
   * Its place is given back when the command ends, or when `answered` (the HTTP answer) settles if that is later.
   */
  async #admitted<C extends ActorCommand>(
    id: string,
    shard: number,
    command: C,
    signal?: AbortSignal,
    answered?: Promise<unknown>,
  ): Promise<ReplyValue<C>> {
    return this.#held(id, shard, () => this.#threads[shard]!.command(id, command, signal), answered)
  }

  /** `work` within admission's place for session `id` on `shard`, given back as `#admitted` says. */
  async #held<T>(id: string, shard: number, work: () => Promise<T>, answered?: Promise<unknown>): Promise<T> {
    const leave = this.#admission.enter(id, shard)
    try {
      return await this.#shutdown.track(work())
    } finally {
      if (answered === undefined) leave()
      else answered.then(leave, leave)
    }
  }
}
