/**
 * @module metrics/event-loop
 * Event-loop delay of the current thread over an interval (perf_hooks' histogram, reset at each sample).
 * A thread whose loop is late runs its timers late: for a shard, that means late keep-alives and lost sockets.
 */
import { monitorEventLoopDelay, type ELDHistogram } from 'node:perf_hooks'
import type { LoopDelay } from '../protocol/thread.js'

const NS_PER_S = 1e9

export class LoopDelayMonitor {
  readonly #histogram: ELDHistogram
  readonly #resolutionS: number

  constructor(resolutionMs = 20) {
    this.#resolutionS = resolutionMs / 1_000
    this.#histogram = monitorEventLoopDelay({ resolution: resolutionMs })
    this.#histogram.enable()
  }

  /** Delay percentiles since the previous sample, in seconds; starts a new interval. */
  sample(): LoopDelay {
    const h = this.#histogram
    // An interval with no recorded tick (a very short one) reports NaN/huge sentinels; show it as 0.
    // Each recorded value is the time between two timer ticks: the resolution itself plus the delay.
    const late = (ns: number) => Math.max(0, ns / NS_PER_S - this.#resolutionS)
    const delay = h.count === 0
      ? { p50: 0, p99: 0, max: 0 }
      : { p50: late(h.percentile(50)), p99: late(h.percentile(99)), max: late(h.max) }
    h.reset()
    return delay
  }

  stop(): void {
    this.#histogram.disable()
  }
}
