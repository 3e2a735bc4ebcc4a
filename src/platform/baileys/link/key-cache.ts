/**
 * @module platform/baileys/link/key-cache
 * The Signal key store Baileys' socket gets: the session's stored keys (storage/lmdb-store.ts) behind a small
 * in-memory cache of the keys it reads again and again (sessions of the devices it writes to, sender keys, device
 * lists, LID mappings), so a send does not decode the same records from the store every time.
 *
 * It replaces Baileys' `makeCacheableSignalKeyStore`, whose cache (a TTL cache per socket) kept every key written
 * for five minutes, the ~800 pre-keys of a pairing included: a pre-key is written once, read at most once (by the
 * first message of a contact that used it) and then deleted, so holding them only inflated the memory of every
 * freshly paired session (measured per idle session). Here:
 * - pre-keys are never cached, in either direction;
 * - the other types are cached on read and on write, a miss too (every write goes through here, so a key that
 *   is not in the store stays absent until written), in one least-recently-used map of at most `maxEntries`;
 * - no timers, no statistics: an idle session costs its entries and nothing else.
 *
 * Writes reach the cache before the store, as in Baileys' version, so a read that follows a write sees it even
 * while the store's commit is in flight. A read that misses goes to the store; if a write lands while that read is
 * out, nothing it read is cached, and ids written meanwhile are answered with what was written.
 */
import type { SignalDataSet, SignalDataTypeMap, SignalKeyStore } from '@whiskeysockets/baileys'
import { SENT_MESSAGE_KEY_TYPE } from '../../../storage/sent-messages.js'

/** Entries per session; past it the least recently used go first (and are read from the store again if needed). */
export const KEY_CACHE_MAX_ENTRIES = 1024

/** Pre-keys (written once, read at most once) and the sent messages that ride in a key write (retry-messages.ts). */
const UNCACHED_TYPES: ReadonlySet<string> = new Set(['pre-key', SENT_MESSAGE_KEY_TYPE])
/** A key known to be absent from the store. */
const ABSENT = Symbol('absent')

type Entry = SignalDataTypeMap[keyof SignalDataTypeMap] | typeof ABSENT

export interface CachedKeyStore extends SignalKeyStore {
  /** Entries held (for tests and heap figures). */
  readonly size: number
}

export function cachedKeyStore(store: SignalKeyStore, maxEntries = KEY_CACHE_MAX_ENTRIES): CachedKeyStore {
  const cache = new Map<string, Entry>()
  /** Bumped by every write of a cached type: a read that overlapped one does not cache what it read. */
  let writes = 0
  const keyOf = (type: string, id: string) => `${type}\0${id}`

  function remember(key: string, value: Entry): void {
    cache.delete(key)
    cache.set(key, value)
    if (cache.size > maxEntries) cache.delete(cache.keys().next().value!)
  }

  return {
    get size() {
      return cache.size
    },

    async get<T extends keyof SignalDataTypeMap>(type: T, ids: string[]) {
      const out: { [id: string]: SignalDataTypeMap[T] } = {}
      if (UNCACHED_TYPES.has(type)) return await store.get(type, ids)
      const missing: string[] = []
      for (const id of ids) {
        const key = keyOf(type, id)
        const hit = cache.get(key)
        if (hit === undefined) {
          missing.push(id)
          continue
        }
        remember(key, hit) // most recently used
        if (hit !== ABSENT) out[id] = hit as SignalDataTypeMap[T]
      }
      if (missing.length === 0) return out
      const before = writes
      const fetched = await store.get(type, missing)
      const cacheable = writes === before
      for (const id of missing) {
        const key = keyOf(type, id)
        // a write that landed while the store was read is newer than what the read found
        const written = cacheable ? undefined : cache.get(key)
        const value =
          written === undefined ? fetched[id] : written === ABSENT ? undefined : (written as SignalDataTypeMap[T])
        if (value !== undefined && value !== null) out[id] = value
        if (cacheable) remember(key, value ?? ABSENT)
      }
      return out
    },

    async set(data: SignalDataSet) {
      for (const [type, entries] of Object.entries(data)) {
        if (UNCACHED_TYPES.has(type) || !entries) continue
        writes++
        for (const [id, value] of Object.entries(entries)) remember(keyOf(type, id), value ?? ABSENT)
      }
      await store.set(data)
    },

    async clear() {
      cache.clear()
      writes++
      await store.clear?.()
    },
  }
}
