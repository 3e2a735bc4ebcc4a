/**
 * @module platform/baileys/link/lazy-caches
 * The caches a Baileys socket keeps for itself, made on their first write instead of when the socket opens
 * (memory per idle session: most sessions never write to them).
 *
 * Each socket makes four NodeCaches the config lets us hand it (retry counters, call offers, placeholder resends,
 * user device lists: with their hit/size statistics and a 10-minute sweep timer each) and a MessageRetryManager
 * whose two bounded LRU caches allocate their whole capacity up front (512 and 1,024 slots: key, value, links and
 * two timestamps per slot). An idle account writes to none of them: in a heap snapshot of a shard thread holding
 * 114 idle paired sessions all 570 NodeCaches were empty, and they and the retry manager held ~80 KB of heap per
 * session (NodeCaches ~5.7 KB each, the retry manager ~52 KB).
 *
 * Here each is the same cache class with the same options, made on its first write; until then a read finds
 * nothing and a delete deletes nothing, as in the empty cache. Baileys closes only the NodeCaches it made itself,
 * so the link closes these when its socket ends (`close()`).
 */
import NodeCache, { type NodeCacheOptions } from '@cacheable/node-cache'
import { DEFAULT_CACHE_TTLS, type WASocket } from '@whiskeysockets/baileys'

/** The NodeCache methods Baileys calls on the caches it is given (`CacheStore`, `PossiblyExtendedCacheStore`). */
export class LazyNodeCache {
  readonly #options: NodeCacheOptions
  #cache: NodeCache<unknown> | undefined
  #closed = false

  constructor(options: NodeCacheOptions) {
    this.#options = options
  }

  /** Whether the cache was made (for tests). */
  get made(): boolean {
    return this.#cache !== undefined
  }

  #made(): NodeCache<unknown> {
    if (!this.#cache) {
      this.#cache = new NodeCache(this.#options)
      if (this.#closed) this.#cache.close() // written after the socket ended: no sweep timer to outlive it
    }
    return this.#cache
  }

  get<T>(key: string): T | undefined {
    return this.#cache?.get(key) as T | undefined
  }

  mget<T>(keys: string[]): Record<string, T | undefined> {
    return this.#cache ? this.#cache.mget<T>(keys) : {}
  }

  set<T>(key: string, value: T): boolean {
    return this.#made().set(key, value)
  }

  mset<T>(entries: { key: string; value: T }[]): boolean {
    return this.#made().mset(entries)
  }

  del(key: string): number {
    return this.#cache?.del(key) ?? 0
  }

  flushAll(): void {
    this.#cache?.flushAll()
  }

  close(): void {
    this.#closed = true
    this.#cache?.close()
  }
}

/** The four caches `makeWASocket` takes, with Baileys' own defaults (`useClones: false`, its TTLs). */
export interface SocketCaches {
  msgRetryCounterCache: LazyNodeCache
  callOfferCache: LazyNodeCache
  placeholderResendCache: LazyNodeCache
  userDevicesCache: LazyNodeCache
}

export function socketCaches(): SocketCaches & { close(): void } {
  const caches: SocketCaches = {
    msgRetryCounterCache: new LazyNodeCache({ stdTTL: DEFAULT_CACHE_TTLS.MSG_RETRY, useClones: false }),
    callOfferCache: new LazyNodeCache({ stdTTL: DEFAULT_CACHE_TTLS.CALL_OFFER, useClones: false }),
    placeholderResendCache: new LazyNodeCache({ stdTTL: DEFAULT_CACHE_TTLS.MSG_RETRY, useClones: false }),
    userDevicesCache: new LazyNodeCache({ stdTTL: DEFAULT_CACHE_TTLS.USER_DEVICES, useClones: false }),
  }
  return {
    ...caches,
    close: () => {
      for (const cache of Object.values(caches)) cache.close()
    },
  }
}

/** The lru-cache members the retry manager uses, and the options it made them with. */
interface LruCache {
  readonly max: number
  readonly ttl: number
  readonly ttlAutopurge: boolean
  readonly updateAgeOnGet: boolean
  readonly dispose: unknown
  readonly size: number
  get(key: string): unknown
  set(key: string, value: unknown): unknown
  has(key: string): boolean
  delete(key: string): boolean
  clear(): void
}

/** The same LRU cache (class and the options Baileys gives it), made on its first write. */
export function lazyLru(made: LruCache): LruCache {
  const Cache = made.constructor as new (options: object) => LruCache
  const options = {
    max: made.max,
    ttl: made.ttl,
    ttlAutopurge: made.ttlAutopurge,
    updateAgeOnGet: made.updateAgeOnGet,
    dispose: made.dispose,
  }
  let cache: LruCache | undefined
  return {
    ...options,
    get size() {
      return cache?.size ?? 0
    },
    get: key => cache?.get(key),
    set: (key, value) => (cache ??= new Cache(options)).set(key, value),
    has: key => cache?.has(key) ?? false,
    delete: key => cache?.delete(key) ?? false,
    clear: () => cache?.clear(),
  }
}

/** The retry manager's fields this module replaces (private in Baileys' types). */
interface RetryManagerCaches {
  recentMessagesMap: LruCache
  baseKeys: LruCache
}

/**
 * Swaps the socket's retry manager's two preallocated LRU caches (recent messages for retry receipts, base keys)
 * for lazily made ones. Its other two caches have no size bound and allocate nothing until written.
 */
export function lazyRetryManagerCaches(sock: WASocket): void {
  const manager = sock.messageRetryManager as unknown as RetryManagerCaches | null
  if (!manager) return
  manager.recentMessagesMap = lazyLru(manager.recentMessagesMap)
  manager.baseKeys = lazyLru(manager.baseKeys)
}
