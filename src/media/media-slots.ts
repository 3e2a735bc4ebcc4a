/**
 * @module media/media-slots
 * How many media sends (download, encryption, upload of a message or status with a file) run at once: at most
 * MEDIA_SENDS_PER_SHARD on one shard thread and MEDIA_SENDS_PER_PROCESS over all shards. Media work is the one kind
 * of command that takes seconds of CPU (hashing and encrypting every byte, then TLS): unbounded, ten tenants sending
 * big files take both cores from the quiet sessions and the HTTP front. Over the bound a send waits its turn, first
 * come first served; it is not refused. A session's own commands already run one at a time, so one session holds
 * at most one slot.
 *
 * The process bound is a counter in a SharedArrayBuffer that every shard thread updates with Atomics; a thread
 * waiting for it sleeps on `Atomics.waitAsync` and is woken by a release.
 *
 * @example
 * const slots = new MediaSlots({ perShard: 2, perProcess: 3, shared: data.mediaSlots })
 * const release = await slots.acquire(signal)
 * try { await send() } finally { release() }
 */

/** Index 0: media sends running in the process; index 1: a sequence bumped on every release (what waiters wait on). */
const RUNNING = 0
const RELEASES = 1

/** The memory every shard thread shares for the process bound (made once, by the main thread). */
export const newMediaSlotMemory = (): SharedArrayBuffer => new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT)

export interface MediaSlotOptions {
  perShard: number
  perProcess: number
  /** From newMediaSlotMemory(); the same buffer in every thread of the process. */
  shared: SharedArrayBuffer
}

export class MediaSlots {
  readonly #perShard: number
  readonly #perProcess: number
  readonly #process: Int32Array
  #running = 0
  readonly #waiting: Array<() => void> = []

  constructor({ perShard, perProcess, shared }: MediaSlotOptions) {
    this.#perShard = perShard
    this.#perProcess = perProcess
    this.#process = new Int32Array(shared)
  }

  /** Media sends running on this shard (tests, metrics). */
  get running(): number {
    return this.#running
  }

  /** Waits for a place on this shard, then in the process; the returned function gives both back (once). */
  async acquire(signal?: AbortSignal): Promise<() => void> {
    await this.#shardSlot(signal)
    try {
      await this.#processSlot(signal)
    } catch (err) {
      this.#releaseShard()
      throw err
    }
    let released = false
    return () => {
      if (released) return
      released = true
      Atomics.sub(this.#process, RUNNING, 1)
      Atomics.add(this.#process, RELEASES, 1)
      Atomics.notify(this.#process, RELEASES)
      this.#releaseShard()
    }
  }

  async #shardSlot(signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted()
    if (this.#running < this.#perShard && this.#waiting.length === 0) {
      this.#running++
      return
    }
    await new Promise<void>((resolve, reject) => {
      const grant = () => {
        signal?.removeEventListener('abort', onAbort)
        resolve()
      }
      const onAbort = () => {
        const i = this.#waiting.indexOf(grant)
        if (i >= 0) this.#waiting.splice(i, 1)
        reject(signal!.reason)
      }
      this.#waiting.push(grant)
      signal?.addEventListener('abort', onAbort, { once: true })
    })
  }

  /** Hands this shard's place to the next waiter (the count stays), or frees it. */
  #releaseShard(): void {
    const next = this.#waiting.shift()
    if (next) next()
    else this.#running--
  }

  async #processSlot(signal?: AbortSignal): Promise<void> {
    for (;;) {
      signal?.throwIfAborted()
      const seen = Atomics.load(this.#process, RELEASES)
      const running = Atomics.load(this.#process, RUNNING)
      if (running < this.#perProcess) {
        if (Atomics.compareExchange(this.#process, RUNNING, running, running + 1) === running) return
        continue // another thread took it first: look again
      }
      // Sleep until some thread releases (or 100 ms, in case a release came between the load and the wait).
      const { async, value } = Atomics.waitAsync(this.#process, RELEASES, seen, 100)
      if (async) await value
    }
  }
}
