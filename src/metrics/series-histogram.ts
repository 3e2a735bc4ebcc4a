/**
 * @module metrics/series-histogram
 * A Prometheus histogram whose series the caller looks up once and then observes with a bucket search and three
 * additions. prom-client's `Histogram` checks and hashes the label set on every observation, even through the object
 * `labels(...)` returns; the request histogram takes one per HTTP request, and on the polled GET /session that was a
 * visible share of the HTTP thread (bench/get-session.ts, BENCHMARKS.md). It registers in a prom-client registry
 * and is rendered the way prom-client renders its own histograms (the same lines in the same order).
 *
 * @example
 * const h = new SeriesHistogram({ name: 'x_seconds', help: 'x', labelNames: ['route'], buckets: [0.1, 1], registry })
 * const s = h.series({ route: '/session' }) // keep it: the label set is checked here, once
 * s.observe(0.05)
 */
import type { Metric, Registry } from 'prom-client'

/** One label set's counts: per bucket (not cumulative), then their sum and count. */
export class HistogramSeries {
  readonly labels: Readonly<Record<string, string>>
  readonly #bounds: readonly number[]
  readonly counts: number[]
  sum = 0
  count = 0

  constructor(labels: Record<string, string>, bounds: readonly number[]) {
    this.labels = labels
    this.#bounds = bounds
    this.counts = bounds.map(() => 0)
  }

  observe(value: number): void {
    const bounds = this.#bounds
    let i = 0
    while (i < bounds.length && value > bounds[i]!) i++
    if (i < bounds.length) this.counts[i]!++
    this.sum += value
    this.count++
  }
}

interface Options<L extends string> {
  name: string
  help: string
  labelNames: readonly L[]
  /** Upper bounds, ascending. */
  buckets: readonly number[]
  registry: Registry
}

/** One line of the exposition, in prom-client's shape: `sharedLabels` are the series', `labels` the line's own. */
interface Line {
  metricName: string
  labels: Record<string, string | number>
  sharedLabels: Readonly<Record<string, string>>
  value: number
}

type JsonLine = Omit<Line, 'sharedLabels'>

export class SeriesHistogram<L extends string> {
  readonly name: string
  readonly help: string
  readonly type = 'histogram'
  readonly aggregator = 'sum'
  readonly #labelNames: readonly L[]
  readonly #bounds: readonly number[]
  readonly #series: HistogramSeries[] = []

  constructor({ name, help, labelNames, buckets, registry }: Options<L>) {
    this.name = name
    this.help = help
    this.#labelNames = labelNames
    this.#bounds = [...buckets]
    // a registry takes any object that renders as a metric does (name, help, type, get)
    registry.registerMetric(this as unknown as Metric)
  }

  /** A new series for `labels` (every label name given, no other): call once per label set and keep it. */
  series(labels: Record<L, string>): HistogramSeries {
    const names = Object.keys(labels)
    if (names.length !== this.#labelNames.length || !this.#labelNames.every(n => names.includes(n)))
      throw new Error(`${this.name}: labels must be exactly ${this.#labelNames.join(', ')}`)
    const series = new HistogramSeries({ ...labels }, this.#bounds)
    this.#series.push(series)
    return series
  }

  /** For the text exposition (what `registry.metrics()` asks for). */
  async getForPromString(): Promise<{ name: string; help: string; type: string; aggregator: string; values: Line[] }> {
    const values: Line[] = []
    const bucket = `${this.name}_bucket`
    for (const s of this.#series) {
      let below = 0
      this.#bounds.forEach((le, i) => {
        below += s.counts[i]!
        values.push({ metricName: bucket, labels: { le }, sharedLabels: s.labels, value: below })
      })
      values.push({ metricName: bucket, labels: { le: '+Inf' }, sharedLabels: s.labels, value: s.count })
      values.push({ metricName: `${this.name}_sum`, labels: {}, sharedLabels: s.labels, value: s.sum })
      values.push({ metricName: `${this.name}_count`, labels: {}, sharedLabels: s.labels, value: s.count })
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values }
  }

  /** For the JSON form (`registry.getMetricsAsJSON()`): each line's labels in full, as prom-client gives them. */
  async get(): Promise<{ name: string; help: string; type: string; aggregator: string; values: JsonLine[] }> {
    const data = await this.getForPromString()
    const values = data.values.map(({ metricName, labels, sharedLabels, value }) => ({
      metricName,
      labels: { ...labels, ...sharedLabels },
      value,
    }))
    return { ...data, values }
  }
}
