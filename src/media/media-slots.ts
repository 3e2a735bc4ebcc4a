/**
 * @module media/media-slots
 * Counted places for media sends, at three levels: per session, per shard thread and over the whole process. A
 * shard holds two sets of them (`MediaSendBounds`), because a media send costs two different things:
 *
 * - **downloads** (`MEDIA_DOWNLOADS_PER_PROCESS`, one per session): a send holds a place from before its first byte
 *   until its temp files are removed. Waiting on a slow origin costs a socket and a file, not CPU, so the bound is
 *   large: it caps the temp disk and sockets media can hold, and it takes that many slow tenants, not three, to keep
 *   a fourth waiting. One per session makes explicit what the mailbox already implies (a session's commands run one
 *   at a time) and holds across a stopped actor whose send is still ending.
 * - **cpu** (`MEDIA_SENDS_PER_SHARD` / `MEDIA_SENDS_PER_PROCESS`): taken only once the files are on disk, around
 *   the work that takes seconds of CPU (decoding for thumbnails, recompression, hashing and encrypting every byte,
 *   the TLS upload), and given back before the send waits for the platform's ack. Unbounded, ten tenants sending big
 *   files would take both cores from the quiet sessions and the HTTP front.
 *
 * Over a bound a send waits its turn, first come first served (a waiter held back only by its session's cap lets
 * the next one pass); it is not refused. The process count lives in a SharedArrayBuffer that every shard thread
 * updates with Atomics; a thread waiting for it sleeps on `Atomics.waitAsync` and is woken by a release. Each shard
 * also records there what it holds, so the thread that replaces a dead one (piscina starts it once the old one
 * exited) gives back the places its predecessor died holding: a crash mid-send does not shrink the bound for good.
 *
 * @example
 * const cpu = new MediaSlots({ shard: 0, perShard: 2, perProcess: 3, shared: data.mediaSlots.cpu })
 * const thumbnail = await cpu.run(() => makeThumbnail(file), signal)
 */

/** Index 0: places held in the process; 1: a sequence bumped on every release (what waiters wait on); 2 + n: places
 * held by shard n. */
const RUNNING = 0
const RELEASES = 1
const HELD_BY_SHARD = 2

/** The memory every shard thread shares for one process bound (made once, by the main thread). */
export const newMediaSlotMemory = (shards: number): SharedArrayBuffer =>
  new SharedArrayBuffer((HELD_BY_SHARD + shards) * Int32Array.BYTES_PER_ELEMENT)

/** The two process bounds' memory, as the main thread hands it to every shard thread. */
export interface MediaSlotMemory {
  downloads: SharedArrayBuffer
  cpu: SharedArrayBuffer
}

export const newMediaSlotMemories = (shards: number): MediaSlotMemory => ({
  downloads: newMediaSlotMemory(shards),
  cpu: newMediaSlotMemory(shards),
})

/** Runs a media send's CPU work (thumbnails, recompression, encryption, upload) in one of the shard's media slots. */
export type InMediaSlot = <T>(work: () => Promise<T>) => Promise<T>

/** What runs a send's CPU work: the slot it was given, or (none given) at once. */
export const slotOf = (options: { inMediaSlot?: InMediaSlot | undefined }): InMediaSlot =>
  options.inMediaSlot ?? (work => work())

/** What a shard bounds its media sends with (see the module comment). */
export interface MediaSendBounds {
  downloads: MediaSlots
  cpu: MediaSlots
}

export interface MediaSlotOptions {
  /** This thread's shard: its cell in `shared`. */
  shard: number
  perShard: number
  perProcess: number
  /** Places one session may hold at once; absent: no cap per session. */
  perSession?: number
  /** From newMediaSlotMemory(); the same buffer in every thread of the process. */
  shared: SharedArrayBuffer
}

interface Waiter {
  session: string | undefined
  grant: () => void
}

export class MediaSlots {
  readonly #perShard: number
  readonly #perProcess: number
  readonly #perSession: number
  readonly #process: Int32Array
  readonly #cell: number
  #running = 0
  readonly #bySession = new Map<string, number>()
  readonly #waiting: Waiter[] = []

  constructor({ shard, perShard, perProcess, perSession = Infinity, shared }: MediaSlotOptions) {
    this.#perShard = perShard
    this.#perProcess = perProcess
    this.#perSession = perSession
    this.#process = new Int32Array(shared)
    this.#cell = HELD_BY_SHARD + shard
    // A new thread for this shard: whatever the shard's cell holds, a thread that died holding it took there.
    const orphaned = Atomics.exchange(this.#process, this.#cell, 0)
    if (orphaned > 0) this.#releaseProcess(orphaned)
  }

  /** Places held on this shard (tests, metrics). */
  get running(): number {
    return this.#running
  }

  /**
   * Waits for a place: the session's (when `session` is given), then this shard's, then the process's. The returned
   * function gives them back (once). A wait the signal aborts leaves no trace.
   */
  async acquire(signal?: AbortSignal, session?: string): Promise<() => void> {
    await this.#shardSlot(signal, session)
    try {
      await this.#processSlot(signal)
    } catch (err) {
      this.#releaseShard(session)
      throw err
    }
    Atomics.add(this.#process, this.#cell, 1)
    let released = false
    return () => {
      if (released) return
      released = true
      Atomics.sub(this.#process, this.#cell, 1)
      this.#releaseProcess(1)
      this.#releaseShard(session)
    }
  }

  /** Runs `work` in a place, given back however it ends. */
  async run<T>(work: () => Promise<T>, signal?: AbortSignal, session?: string): Promise<T> {
    const release = await this.acquire(signal, session)
    try {
      return await work()
    } finally {
      release()
    }
  }

  #mayStart(session: string | undefined): boolean {
    return (
      this.#running < this.#perShard &&
      (session === undefined || (this.#bySession.get(session) ?? 0) < this.#perSession)
    )
  }

  #take(session: string | undefined): void {
    this.#running++
    if (session !== undefined) this.#bySession.set(session, (this.#bySession.get(session) ?? 0) + 1)
  }

  async #shardSlot(signal: AbortSignal | undefined, session: string | undefined): Promise<void> {
    signal?.throwIfAborted()
    // first come first served: an arrival passes no waiter that could start now
    if (this.#mayStart(session) && !this.#waiting.some(w => this.#mayStart(w.session))) {
      this.#take(session)
      return
    }
    await new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        session,
        grant: () => {
          signal?.removeEventListener('abort', onAbort)
          resolve()
        },
      }
      const onAbort = () => {
        const i = this.#waiting.indexOf(waiter)
        if (i >= 0) this.#waiting.splice(i, 1)
        reject(signal!.reason)
      }
      this.#waiting.push(waiter)
      signal?.addEventListener('abort', onAbort, { once: true })
    })
  }

  /** Frees this shard's place and hands free places to the first waiters that may start. */
  #releaseShard(session: string | undefined): void {
    this.#running--
    if (session !== undefined) {
      const held = (this.#bySession.get(session) ?? 1) - 1
      if (held > 0) this.#bySession.set(session, held)
      else this.#bySession.delete(session)
    }
    for (let i = 0; i < this.#waiting.length && this.#running < this.#perShard; ) {
      const waiter = this.#waiting[i]!
      if (!this.#mayStart(waiter.session)) {
        i++
        continue
      }
      this.#waiting.splice(i, 1)
      this.#take(waiter.session)
      waiter.grant()
    }
  }

  #releaseProcess(count: number): void {
    Atomics.sub(this.#process, RUNNING, count)
    Atomics.add(this.#process, RELEASES, 1)
    Atomics.notify(this.#process, RELEASES)
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
