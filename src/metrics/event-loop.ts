/**
 * @module metrics/event-loop
 * Event-loop delay of the current thread over an interval (sampled once per interval by the telemetry tick).
 * A thread whose loop is late runs its timers late: for a shard, that means late keep-alives and lost sockets.
 *
 * perf_hooks' histogram measures it with a timer of its own, every 20 ms: 50 wake-ups a second in every thread,
 * about 0.3 % of a core each on an idle gateway (measured), for a figure that is 0 whenever the thread is idle. So
 * the histogram runs only while the thread works: when the loop was busy for at least one resolution step (20 ms)
 * in the last interval, it is on for the next one; else it is off, and the interval's figure is how late the
 * telemetry tick itself ran. An idle thread cannot have held its loop for longer than it was busy, so nothing the
 * histogram would have caught is lost; a stall that starts in an idle interval still shows, as the tick's lateness.
 */
import { monitorEventLoopDelay, performance, type ELDHistogram, type EventLoopUtilization } from 'node:perf_hooks'
import type { LoopDelay } from '../protocol/thread.js'

const NS_PER_S = 1e9
const MS_PER_S = 1e3

export class LoopDelayMonitor {
  readonly #histogram: ELDHistogram
  readonly #resolutionMs: number
  readonly #intervalMs: number
  #on = false
  #lastSample = performance.now()
  #elu: EventLoopUtilization = performance.eventLoopUtilization()

  /** @param intervalMs how often `sample()` is called (its own lateness is measured against it) */
  constructor(intervalMs: number, resolutionMs = 20) {
    this.#intervalMs = intervalMs
    this.#resolutionMs = resolutionMs
    this.#histogram = monitorEventLoopDelay({ resolution: resolutionMs })
  }

  /** Whether the fine histogram (and its timer) runs now. */
  get fine(): boolean {
    return this.#on
  }

  /** Delay percentiles since the previous sample, in seconds; starts a new interval. */
  sample(): LoopDelay {
    const now = performance.now()
    const tickLate = Math.max(0, now - this.#lastSample - this.#intervalMs) / MS_PER_S
    this.#lastSample = now
    const h = this.#histogram
    let delay: LoopDelay
    if (this.#on && h.count > 0) {
      // Each recorded value is the time between two timer ticks: the resolution itself plus the delay.
      const late = (ns: number) => Math.max(0, ns / NS_PER_S - this.#resolutionMs / MS_PER_S)
      delay = { p50: late(h.percentile(50)), p99: late(h.percentile(99)), max: Math.max(late(h.max), tickLate) }
    } else {
      delay = { p50: tickLate, p99: tickLate, max: tickLate }
    }
    h.reset()
    const busyMs = performance.eventLoopUtilization(this.#elu).active
    this.#elu = performance.eventLoopUtilization()
    this.#switch(busyMs >= this.#resolutionMs)
    return delay
  }

  stop(): void {
    this.#switch(false)
  }

  #switch(on: boolean): void {
    if (on === this.#on) return
    this.#on = on
    if (on) this.#histogram.enable()
    else this.#histogram.disable()
  }
}
