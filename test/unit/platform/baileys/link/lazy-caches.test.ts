/**
 * The caches a Baileys socket gets made on first write (src/platform/baileys/link/lazy-caches.ts): until then they
 * answer as the empty cache would, afterwards they are the cache Baileys would have made, with its options.
 */
import { MessageRetryManager, type WASocket } from '@whiskeysockets/baileys'
import pino from 'pino'
import { describe, expect, it, vi } from 'vitest'
import {
  LazyNodeCache,
  lazyLru,
  lazyRetryManagerCaches,
  socketCaches,
} from '../../../../../src/platform/baileys/link/lazy-caches.js'

describe('lazy NodeCache', () => {
  it('answers as an empty cache until the first write, then as a NodeCache', () => {
    const cache = new LazyNodeCache({ stdTTL: 60, useClones: false })
    expect(cache.get('a')).toBeUndefined()
    expect(cache.mget(['a', 'b'])).toEqual({})
    expect(cache.del('a')).toBe(0)
    cache.flushAll()
    expect(cache.made).toBe(false)

    const devices = [{ user: 'x', device: 1 }]
    expect(cache.set('a', devices)).toBe(true)
    expect(cache.made).toBe(true)
    expect(cache.get('a')).toBe(devices) // useClones: false, as Baileys makes its own
    expect(cache.mset([{ key: 'b', value: 2 }])).toBe(true)
    expect(cache.mget(['a', 'b', 'c'])).toEqual({ a: devices, b: 2 })
    expect(cache.del('a')).toBe(1)
    expect(cache.get('a')).toBeUndefined()
    cache.flushAll()
    expect(cache.get('b')).toBeUndefined()
    cache.close()
  })

  it('keeps the time to live it was given', () => {
    vi.useFakeTimers()
    try {
      const cache = new LazyNodeCache({ stdTTL: 5, useClones: false })
      cache.set('a', 1)
      vi.advanceTimersByTime(4_000)
      expect(cache.get('a')).toBe(1)
      vi.advanceTimersByTime(2_000)
      expect(cache.get('a')).toBeUndefined()
      cache.close()
    } finally {
      vi.useRealTimers()
    }
  })

  it('leaves no sweep timer behind: closed before or after its first write', () => {
    vi.useFakeTimers()
    try {
      const before = vi.getTimerCount()
      const caches = socketCaches()
      expect(vi.getTimerCount()).toBe(before) // nothing made, no timers
      caches.userDevicesCache.set('a', [])
      expect(vi.getTimerCount()).toBe(before + 1) // the NodeCache's 10-minute sweep
      caches.close()
      expect(vi.getTimerCount()).toBe(before)
      caches.callOfferCache.set('late', 1) // a write after the socket ended
      expect(caches.callOfferCache.get('late')).toBe(1)
      expect(vi.getTimerCount()).toBe(before)
    } finally {
      vi.useRealTimers()
    }
  })
})

describe('lazy LRU cache', () => {
  it("is made on first write with the options of the retry manager's own", () => {
    const manager = new MessageRetryManager(pino({ level: 'silent' }), 5)
    const own = manager as unknown as {
      recentMessagesMap: Parameters<typeof lazyLru>[0]
      messageKeyIndex: Map<string, string>
    }
    const original = own.recentMessagesMap
    const lazy = lazyLru(original)
    expect(lazy.get('a')).toBeUndefined()
    expect(lazy.has('a')).toBe(false)
    expect(lazy.delete('a')).toBe(false)
    lazy.clear()
    expect(lazy.size).toBe(0)

    own.recentMessagesMap = lazy
    manager.addRecentMessage('a@s.whatsapp.net', 'id1', { conversation: 'hi' })
    expect(lazy.size).toBe(1)
    expect(own.messageKeyIndex.size).toBe(1)
    lazy.clear()
    expect(own.messageKeyIndex.size).toBe(0) // Baileys' dispose (its message index) still runs
    for (const field of ['max', 'ttl', 'ttlAutopurge', 'updateAgeOnGet', 'dispose'] as const) {
      expect(lazy[field]).toBe(original[field])
    }
    expect(lazy.max).toBe(512)
  })

  it("keeps the retry manager's behaviour: recent messages, base keys", () => {
    const manager = new MessageRetryManager(pino({ level: 'silent' }), 5)
    const sock = { messageRetryManager: manager } as unknown as WASocket
    lazyRetryManagerCaches(sock)
    const message = { conversation: 'hi' }
    expect(manager.getRecentMessage('a@s.whatsapp.net', 'id1')).toBeUndefined()
    manager.addRecentMessage('a@s.whatsapp.net', 'id1', message)
    expect(manager.getRecentMessage('a@s.whatsapp.net', 'id1')?.message).toBe(message)
    expect(manager.hasSameBaseKey('a', 'id1', new Uint8Array([1, 2]))).toBe(false)
    manager.saveBaseKey('a', 'id1', new Uint8Array([1, 2]))
    expect(manager.hasSameBaseKey('a', 'id1', new Uint8Array([1, 2]))).toBe(true)
    manager.deleteBaseKey('a', 'id1')
    expect(manager.hasSameBaseKey('a', 'id1', new Uint8Array([1, 2]))).toBe(false)
    manager.clear()
    expect(manager.getRecentMessage('a@s.whatsapp.net', 'id1')).toBeUndefined()
  })

  it('does nothing for a socket without a retry manager', () => {
    expect(() => lazyRetryManagerCaches({ messageRetryManager: null } as unknown as WASocket)).not.toThrow()
  })
})
