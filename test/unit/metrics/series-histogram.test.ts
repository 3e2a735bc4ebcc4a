/**
 * The request histogram an operator scrapes must read as prom-client's own histogram would for the same requests:
 * the same lines, in the same order, with the same labels and values, in text and in JSON.
 */
import { Histogram, Registry } from 'prom-client'
import { describe, expect, it } from 'vitest'
import { SeriesHistogram } from '../../../src/metrics/series-histogram.js'

const BUCKETS = [0.001, 0.01, 0.1, 1]
const OBSERVED: [string, string, number][] = [
  ['GET', '200', 0.0004],
  ['GET', '200', 0.001], // on a bound: counted in that bucket
  ['GET', '200', 0.05],
  ['GET', '404', 2.5], // past the last bound: only in +Inf
  ['POST', '200', 0.2],
  ['GET', '200', 0.0099],
]

function both() {
  const ours = new Registry()
  const theirs = new Registry()
  const options = { name: 'x_seconds', help: 'x by method and status', buckets: BUCKETS }
  const h = new SeriesHistogram({ ...options, labelNames: ['method', 'status_code'], registry: ours })
  const reference = new Histogram({ ...options, labelNames: ['method', 'status_code'], registers: [theirs] })
  const series = new Map<string, ReturnType<typeof h.series>>()
  for (const [method, status_code, value] of OBSERVED) {
    const key = `${method} ${status_code}`
    if (!series.has(key)) series.set(key, h.series({ method, status_code }))
    series.get(key)!.observe(value)
    reference.labels({ method, status_code }).observe(value)
  }
  return { ours, theirs }
}

describe('SeriesHistogram', () => {
  it("renders exactly as prom-client's Histogram for the same observations", async () => {
    const { ours, theirs } = both()
    const text = await ours.metrics()
    expect(text).toBe(await theirs.metrics())
    expect(text).toContain('x_seconds_bucket{le="0.001",method="GET",status_code="200"} 2')
    expect(text).toContain('x_seconds_bucket{le="1",method="GET",status_code="404"} 0')
    expect(text).toContain('x_seconds_count{method="GET",status_code="404"} 1')
  })

  it('gives the same JSON as well (but for the exemplars, which it does not keep)', async () => {
    const { ours, theirs } = both()
    const withoutExemplars = (await theirs.getMetricsAsJSON()).map(m => ({
      ...m,
      values: m.values.map(v => {
        const { exemplar: _none, ...rest } = v as typeof v & { exemplar?: unknown }
        return rest
      }),
    }))
    expect(await ours.getMetricsAsJSON()).toEqual(withoutExemplars)
  })

  it('refuses a label set that is not exactly its label names', () => {
    const h = new SeriesHistogram({
      name: 'y',
      help: 'y',
      labelNames: ['a', 'b'],
      buckets: BUCKETS,
      registry: new Registry(),
    })
    expect(() => h.series({ a: '1' } as never)).toThrow('labels must be exactly a, b')
    expect(() => h.series({ a: '1', c: '2' } as never)).toThrow('labels must be exactly a, b')
  })
})
