import { describe, expect, it } from 'vitest'
import { mapWithConcurrency, PictureCache } from '../../src/platform/picture-cache.js'

describe('picture cache', () => {
  it('reuses a fetched URL within the TTL and refetches after it', async () => {
    let now = 0
    let calls = 0
    const cache = new PictureCache(1000, () => now)
    const fetch = async () => `url${++calls}`
    expect(await cache.get('g1', fetch)).toBe('url1')
    now = 999
    expect(await cache.get('g1', fetch)).toBe('url1')
    now = 1000
    expect(await cache.get('g1', fetch)).toBe('url2')
  })

  it('concurrent callers share one fetch', async () => {
    let calls = 0
    const cache = new PictureCache(60_000)
    const fetch = () => new Promise<string>(resolve => { calls++; setTimeout(() => resolve('u'), 20) })
    expect(await Promise.all([cache.get('a', fetch), cache.get('a', fetch)])).toEqual(['u', 'u'])
    expect(calls).toBe(1)
  })

  it('bounded concurrency keeps order and never exceeds the limit', async () => {
    let running = 0
    let peak = 0
    const out = await mapWithConcurrency([1, 2, 3, 4, 5, 6, 7], 3, async n => {
      running++; peak = Math.max(peak, running)
      await new Promise(r => setTimeout(r, 5))
      running--
      return n * 2
    })
    expect(out).toEqual([2, 4, 6, 8, 10, 12, 14])
    expect(peak).toBeLessThanOrEqual(3)
    expect(await mapWithConcurrency([], 3, async x => x)).toEqual([])
  })
})
