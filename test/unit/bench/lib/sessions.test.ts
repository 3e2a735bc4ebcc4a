/** Bench helpers with logic: bounded concurrency, and short/long settings with env overrides. */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { inBatches } from '../../../../bench/lib/sessions.js'

describe('inBatches', () => {
  it('runs every task once, never more than the limit at a time, and keeps results in index order', async () => {
    let running = 0
    let peak = 0
    const out = await inBatches(25, 4, async i => {
      running++
      peak = Math.max(peak, running)
      await new Promise(r => setTimeout(r, (i * 7) % 5))
      running--
      return i * 2
    })
    expect(out).toEqual(Array.from({ length: 25 }, (_, i) => i * 2))
    expect(peak).toBe(4)
  })
})

describe('bench settings', () => {
  afterEach(() => {
    vi.unstubAllEnvs()
    vi.resetModules()
  })
  const load = async () => (await import('../../../../bench/lib/settings.js')).setting

  it('uses the short default unless BENCH_LONG=1, and an env variable over both', async () => {
    vi.stubEnv('BENCH_LONG', '')
    expect((await load())('BENCH_X', 10, 1000)).toBe(10)
    vi.resetModules()
    vi.stubEnv('BENCH_LONG', '1')
    const setting = await load()
    expect(setting('BENCH_X', 10, 1000)).toBe(1000)
    vi.stubEnv('BENCH_X', '300')
    expect(setting('BENCH_X', 10, 1000)).toBe(300)
  })

  it('refuses a setting that is not a number', async () => {
    vi.stubEnv('BENCH_X', 'lots')
    const setting = await load()
    expect(() => setting('BENCH_X', 1)).toThrow('BENCH_X must be a number')
  })
})
