/**
 * @module platform/baileys/patches/async-mutex
 * The lock Baileys takes around each key transaction, each key read in one, and each stanza it handles in turn
 * (`Utils/auth-utils.js`, `Utils/make-mutex.js`), as a plain first-come lock instead of async-mutex's.
 *
 * Why: async-mutex 0.5's `runExclusive` is a semaphore of weight one with priorities and cancellation, shipped as
 * generator-based `__awaiter` code: ~2 µs a call with a generator, promises and closures to collect, against
 * ~0.3 µs here, and Baileys takes it several times for each message sent (the relay's key transaction, the keys
 * it reads, the ack and the receipt that come back): async-mutex was 2.8 % of a shard's CPU per text in
 * bench:send-profile.
 *
 * What Baileys uses of it, kept: `new Mutex()`; `runExclusive(callback)`: one holder at a time, in the order the
 * calls came, the callback started on a later microtask even when the lock is free (as async-mutex does), the lock
 * passed on when the callback's promise settles either way, the callback's result or error the call's;
 * `isLocked()`, true from the call until the last holder is done. `use-multi-file-auth-state.js` (which the
 * gateway does not use) keeps async-mutex.
 */
import { importRedirect, type SourcePatch } from './source-hook.js'

export class Mutex {
  #locked = false
  /** The calls waiting, first first: each is started by the holder before it when that one is done. */
  readonly #waiting: Array<() => void> = []

  isLocked(): boolean {
    return this.#locked
  }

  async runExclusive<T>(callback: () => T | Promise<T>): Promise<T> {
    if (this.#locked) {
      await new Promise<void>(start => this.#waiting.push(start))
    } else {
      this.#locked = true
      await undefined
    }
    try {
      return await callback()
    } finally {
      const next = this.#waiting.shift()
      // the lock goes to the next caller without being free in between
      if (next) next()
      else this.#locked = false
    }
  }
}

const patchOf = (file: string, clause: string): SourcePatch =>
  importRedirect(`mutex: ${file}`, file, clause, 'async-mutex', import.meta.url)

export const asyncMutexPatches: readonly SourcePatch[] = [
  patchOf('lib/Utils/auth-utils.js', 'import { Mutex }'),
  patchOf('lib/Utils/make-mutex.js', 'import { Mutex as AsyncMutex }'),
]
