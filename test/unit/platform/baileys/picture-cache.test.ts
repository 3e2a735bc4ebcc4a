import { describe, expect, it } from 'vitest'
import { fetchPictureUrl, mapWithConcurrency, PictureCache } from '../../../../src/platform/baileys/picture-cache.js'

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
    const fetch = () =>
      new Promise<string>(resolve => {
        calls++
        setTimeout(() => resolve('u'), 20)
      })
    expect(await Promise.all([cache.get('a', fetch), cache.get('a', fetch)])).toEqual(['u', 'u'])
    expect(calls).toBe(1)
  })

  it('bounded concurrency keeps order and never exceeds the limit', async () => {
    let running = 0
    let peak = 0
    const out = await mapWithConcurrency([1, 2, 3, 4, 5, 6, 7], 3, async n => {
      running++
      peak = Math.max(peak, running)
      await new Promise(r => setTimeout(r, 5))
      running--
      return n * 2
    })
    expect(out).toEqual([2, 4, 6, 8, 10, 12, 14])
    expect(peak).toBeLessThanOrEqual(3)
    expect(await mapWithConcurrency([], 3, async x => x)).toEqual([])
  })

  it('caches "no picture" but not "could not tell", so a timeout does not blank a picture for a whole TTL', async () => {
    const cache = new PictureCache(60_000)
    let answers: Array<string | undefined> = [undefined, 'https://pps.test/a.jpg']
    expect(await cache.get('a', async () => answers.shift())).toBe('')
    expect(await cache.get('a', async () => answers.shift())).toBe('https://pps.test/a.jpg')
    answers = ['', 'https://pps.test/b.jpg']
    expect(await cache.get('b', async () => answers.shift())).toBe('')
    expect(await cache.get('b', async () => answers.shift())).toBe('')
  })

  it('reads IQ 404/401/403 as "no picture" and timeouts or dropped connections as "could not tell"', async () => {
    const boom = (data?: number) => Object.assign(new Error('iq error'), { data })
    const sock = (answer: () => Promise<string | undefined>) => ({ profilePictureUrl: answer }) as never
    expect(
      await fetchPictureUrl(
        sock(async () => 'https://pps.test/x.jpg'),
        'x@g.us',
        1000,
      ),
    ).toBe('https://pps.test/x.jpg')
    expect(
      await fetchPictureUrl(
        sock(async () => undefined),
        'x@g.us',
        1000,
      ),
    ).toBeUndefined()
    for (const code of [401, 403, 404]) {
      expect(
        await fetchPictureUrl(
          sock(async () => {
            throw boom(code)
          }),
          'x@g.us',
          1000,
        ),
      ).toBe('')
    }
    expect(
      await fetchPictureUrl(
        sock(async () => {
          throw boom(500)
        }),
        'x@g.us',
        1000,
      ),
    ).toBeUndefined()
    expect(
      await fetchPictureUrl(
        sock(async () => {
          throw boom()
        }),
        'x@g.us',
        1000,
      ),
    ).toBeUndefined()
  })

  it('forget() drops an entry, and an answer fetched before the forget is not cached', async () => {
    const cache = new PictureCache(60_000)
    expect(await cache.get('g', async () => 'old')).toBe('old')
    cache.forget('g')
    let release!: (url: string) => void
    const slow = cache.get(
      'g',
      () =>
        new Promise<string>(r => {
          release = r
        }),
    )
    cache.forget('g')
    release('stale')
    expect(await slow).toBe('stale')
    expect(await cache.get('g', async () => 'new')).toBe('new')
    expect(await cache.get('g', async () => 'newer')).toBe('new')
  })
})
