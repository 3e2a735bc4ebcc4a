/**
 * @module test/unit/platform/baileys/link/key-cache
 * The Signal key cache in front of a session's stored keys: every read answers what the last write said (even
 * while that write's commit is still in flight), the ~800 pre-keys a pairing writes are not kept in memory, and
 * the cache stays within its bound however many keys a session touches.
 */
import { describe, expect, it } from 'vitest'
import type { SignalDataSet, SignalDataTypeMap, SignalKeyStore } from '@whiskeysockets/baileys'
import { cachedKeyStore } from '../../../../../src/platform/baileys/link/key-cache.js'

/** A memory key store that counts reads per type and can hold its writes back (a commit in flight). */
function countingStore() {
  const rows = new Map<string, unknown>()
  const inner: SignalKeyStore = {
    async get<T extends keyof SignalDataTypeMap>(type: T, ids: string[]) {
      const out: { [id: string]: SignalDataTypeMap[T] } = {}
      for (const id of ids) if (rows.has(`${type}/${id}`)) out[id] = rows.get(`${type}/${id}`) as SignalDataTypeMap[T]
      return out
    },
    async set(data: SignalDataSet) {
      for (const [type, entries] of Object.entries(data)) {
        for (const [id, v] of Object.entries(entries ?? {})) {
          if (v === null || v === undefined) rows.delete(`${type}/${id}`)
          else rows.set(`${type}/${id}`, v)
        }
      }
    },
    clear: async () => {
      rows.clear()
    },
  }
  const reads = new Map<string, number>()
  let gate: Promise<void> | undefined
  const store: SignalKeyStore = {
    async get<T extends keyof SignalDataTypeMap>(type: T, ids: string[]) {
      reads.set(type, (reads.get(type) ?? 0) + ids.length)
      return await inner.get(type, ids)
    },
    async set(data: SignalDataSet) {
      if (gate) await gate
      await inner.set(data)
    },
    clear: async () => {
      await inner.clear?.()
    },
  }
  return {
    store,
    reads: (type: string) => reads.get(type) ?? 0,
    holdWrites() {
      let open!: () => void
      gate = new Promise(resolve => {
        open = resolve
      })
      return () => {
        gate = undefined
        open()
      }
    },
  }
}

const session = (n: number) => Buffer.from([n, n, n])

describe('signal key cache', () => {
  it('answers repeated reads from memory, absent keys included, and reads what was last written', async () => {
    const { store, reads } = countingStore()
    const keys = cachedKeyStore(store)
    await keys.set({ session: { a: session(1) } })
    expect(await keys.get('session', ['a', 'b'])).toEqual({ a: session(1) })
    expect(await keys.get('session', ['a', 'b'])).toEqual({ a: session(1) })
    expect(reads('session')).toBe(1) // only 'b', once: it is absent, and stays known as absent
    await keys.set({ session: { b: session(2), a: null } })
    expect(await keys.get('session', ['a', 'b'])).toEqual({ b: session(2) })
    expect(await store.get('session', ['a', 'b'])).toEqual({ b: session(2) }) // written through
  })

  it('does not keep the pre-keys a pairing writes: they go to the store and are read from it', async () => {
    const { store, reads } = countingStore()
    const keys = cachedKeyStore(store)
    const preKeys = Object.fromEntries(
      Array.from({ length: 812 }, (_, i) => [
        String(i + 1),
        { public: Buffer.alloc(32, i), private: Buffer.alloc(32, i + 1) },
      ]),
    )
    await keys.set({ 'pre-key': preKeys, session: { a: session(1) } })
    expect(keys.size).toBe(1)
    expect(await keys.get('pre-key', ['7'])).toEqual({ '7': preKeys['7'] })
    expect(reads('pre-key')).toBe(1)
    await keys.set({ 'pre-key': { '7': null } }) // used by a contact's first message, then deleted
    expect(await keys.get('pre-key', ['7'])).toEqual({})
    expect(keys.size).toBe(1)
  })

  it('keeps at most its bound, dropping the least recently used first', async () => {
    const { store, reads } = countingStore()
    const keys = cachedKeyStore(store, 3)
    await keys.set({ session: { a: session(1), b: session(2), c: session(3) } })
    await keys.get('session', ['a']) // a is now the most recent
    await keys.set({ session: { d: session(4) } }) // b goes
    expect(keys.size).toBe(3)
    expect(await keys.get('session', ['a', 'c', 'd'])).toEqual({ a: session(1), c: session(3), d: session(4) })
    expect(reads('session')).toBe(0)
    expect(await keys.get('session', ['b'])).toEqual({ b: session(2) }) // from the store
    expect(reads('session')).toBe(1)
  })

  it('shows a write to reads while its commit is in flight, and does not cache a read a write overtook', async () => {
    const { store, holdWrites } = countingStore()
    const keys = cachedKeyStore(store)
    await keys.set({ session: { a: session(1) } })
    const release = holdWrites()
    const writing = keys.set({ session: { a: session(2) } })
    expect(await keys.get('session', ['a'])).toEqual({ a: session(2) })
    release()
    await writing

    // a miss whose store read is overtaken by a write answers the write, and caches nothing stale
    const slow = countingStore()
    const cached = cachedKeyStore({
      ...slow.store,
      get: async (type, ids) => {
        await new Promise(r => setTimeout(r, 20))
        return slow.store.get(type, ids)
      },
    })
    await slow.store.set({ session: { x: session(7) } }) // in the store only, as after a restart
    const reading = cached.get('session', ['x'])
    await cached.set({ session: { x: session(8) } })
    expect(await reading).toEqual({ x: session(8) })
    expect(await cached.get('session', ['x'])).toEqual({ x: session(8) })
  })

  it('forgets everything on clear', async () => {
    const { store } = countingStore()
    const keys = cachedKeyStore(store)
    await keys.set({ session: { a: session(1) } })
    await keys.clear?.()
    expect(keys.size).toBe(0)
    expect(await keys.get('session', ['a'])).toEqual({})
  })
})
