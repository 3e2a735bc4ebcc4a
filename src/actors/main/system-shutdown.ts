/**
 * @module actors/main/system-shutdown
 * When the session system stops taking work, and what it waits for first. Every lifecycle call and command that
 * reaches a shard is tracked while it runs; once shutdown begins (SIGTERM) new work gets the mode's closed error
 * (one process: 503 SHUTTING_DOWN, a cluster node: SESSION_MOVING), the tracked work gets up to SHUTDOWN_GRACE_MS to
 * finish, and only then are the system's parts released (`release`: sockets closed without logging out, the store
 * closed), so a command under way is answered rather than cut.
 *
 * @example
 * const shutdown = new SystemShutdown({ closedError: 'SHUTTING_DOWN', graceMs: 10_000, release })
 * await shutdown.track(pool.command(id, command))
 * await shutdown.close() // once; again: the same promise
 */
import { GatewayError } from '../../protocol/errors.js'
import type { SessionMode } from './session-mode.js'

export interface SystemShutdownOptions {
  /** What a request gets once shutdown has begun. */
  closedError: SessionMode['closedError']
  /** How long tracked work may go on after shutdown begins (SHUTDOWN_GRACE_MS). */
  graceMs: number
  /** Releases the system's parts, once the tracked work is done or the grace period is over. */
  release(): Promise<void>
}

export class SystemShutdown {
  readonly #options: SystemShutdownOptions
  /** Lifecycle calls and commands on their way to or in a shard. */
  readonly #inFlight = new Set<Promise<unknown>>()
  /** Set once shutdown begins; settles when every part is released. */
  #closing: Promise<void> | undefined

  constructor(options: SystemShutdownOptions) {
    this.#options = options
  }

  /** Keeps `work` among what shutdown waits for until it settles; returns it. */
  track<T>(work: Promise<T>): Promise<T> {
    const inFlight = this.#inFlight
    inFlight.add(work)
    const done = () => inFlight.delete(work)
    work.then(done, done)
    return work
  }

  /** Throws the mode's closed error once shutdown has begun. */
  assertOpen(): void {
    if (this.#closing) throw new GatewayError(this.#options.closedError)
  }

  /** True from the start of shutdown on (the parts are released at its end). */
  isClosing(): boolean {
    return this.#closing !== undefined
  }

  /** Begins shutdown (once); resolves when the parts are released. */
  close(): Promise<void> {
    this.#closing ??= this.#drainThenRelease()
    return this.#closing
  }

  async #drainThenRelease(): Promise<void> {
    let timer: NodeJS.Timeout | undefined
    const grace = new Promise<void>(resolve => {
      timer = setTimeout(resolve, this.#options.graceMs)
    })
    await Promise.race([Promise.allSettled([...this.#inFlight]), grace])
    clearTimeout(timer)
    await this.#options.release()
  }
}
