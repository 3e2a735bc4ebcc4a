/**
 * @module metrics/event-loop
 * Event-loop delay of the current thread over an interval (perf_hooks' histogram, reset at each sample).
 * A thread whose loop is late runs its timers late: for a shard, that means late keep-alives and lost sockets.
 */
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks'
import type { LoopDelay } from './catalog.js'

const NS_PER_S = 1e9

export class LoopDelayMonitor {
  readonly #histogram: IntervalHistogram

  constructor(resolutionMs = 20) {
    this.#histogram = monitorEventLoopDelay({ resolution: resolutionMs })
    this.#histogram.enable()
  }

  /** Delay percentiles since the previous sample, in seconds; starts a new interval. */
  sample(): LoopDelay {
    const h = this.#histogram
    // An interval with no recorded tick (a very short one) reports NaN/huge sentinels; show it as 0.
    const delay = h.count === 0
      ? { p50: 0, p99: 0, max: 0 }
      : { p50: h.percentile(50) / NS_PER_S, p99: h.percentile(99) / NS_PER_S, max: h.max / NS_PER_S }
    h.reset()
    return delay
  }

  stop(): void {
    this.#histogram.disable()
  }
}
