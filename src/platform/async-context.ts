/**
 * @module platform/async-context
 * One AsyncLocalStorage per thread for every Baileys socket, instead of one per socket.
 *
 * Why: Baileys' `addTransactionCapability` (called synchronously by `makeWASocket`) creates a `new AsyncLocalStorage()`
 * per socket, and its first `run()` enables it for the life of the process (Baileys issue #2806). On Node 20 every
 * enabled storage is visited on every async step (each promise, timer, socket callback), so the CPU each send costs
 * grew with every socket ever created (~8 ms at 50 sockets, 33 ms at 500), the heap too, and keep-alive timers ran
 * seconds late under send bursts until idle sockets dropped with 408.
 *
 * How: Baileys imports `{ AsyncLocalStorage } from 'async_hooks'`, an ESM live binding of a builtin. While a socket is
 * built (`withSharedAsyncContext`), the builtin's export is swapped for {@link MultiplexedStorage}, whose instances
 * all keep their store in ONE shared real storage (a small map keyed by the instance), and swapped back right after.
 * Each wrapper behaves like its own storage (per-socket transactions stay isolated), but only one storage is ever
 * enabled, so the per-step cost stays constant however many sockets the thread holds. No node_modules edit.
 */
import asyncHooks, { AsyncLocalStorage } from 'node:async_hooks'
import { syncBuiltinESMExports } from 'node:module'

type Stores = ReadonlyMap<MultiplexedStorage<unknown>, unknown>

/** The one real storage every wrapper in this thread shares. */
const shared = new AsyncLocalStorage<Stores>()
const NONE: Stores = new Map()

const current = (): Stores => shared.getStore() ?? NONE

/** A stand-in for `AsyncLocalStorage` with the same per-instance behaviour, stored in the shared storage. */
export class MultiplexedStorage<T> {
  getStore(): T | undefined {
    return current().get(this) as T | undefined
  }

  run<R, A extends unknown[]>(store: T, callback: (...args: A) => R, ...args: A): R {
    return shared.run(this.#with(store), callback, ...args)
  }

  exit<R, A extends unknown[]>(callback: (...args: A) => R, ...args: A): R {
    return shared.run(this.#without(), callback, ...args)
  }

  enterWith(store: T): void {
    shared.enterWith(this.#with(store))
  }

  /** Forgets this instance's store in the current context (the shared storage stays enabled for the others). */
  disable(): void {
    if (current().has(this)) shared.enterWith(this.#without())
  }

  #with(store: T): Stores {
    const next = new Map(current())
    next.set(this, store)
    return next
  }

  #without(): Stores {
    const next = new Map(current())
    next.delete(this)
    return next
  }
}

const builtin = asyncHooks as { AsyncLocalStorage: unknown }

/**
 * Runs `build` (synchronously) with `AsyncLocalStorage` from `async_hooks` replaced by {@link MultiplexedStorage}
 * for every module that imports it, then restores the real class. `build` must create its storages synchronously:
 * `makeWASocket` does (socket.js: `addTransactionCapability` at construction).
 */
export function withSharedAsyncContext<T>(build: () => T): T {
  const real = builtin.AsyncLocalStorage
  builtin.AsyncLocalStorage = MultiplexedStorage
  syncBuiltinESMExports()
  try {
    return build()
  } finally {
    builtin.AsyncLocalStorage = real
    syncBuiltinESMExports()
  }
}
