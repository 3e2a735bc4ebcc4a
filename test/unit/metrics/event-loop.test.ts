/**
 * The event-loop delay figure (`gateway_event_loop_delay_seconds`): an idle thread runs no 20 ms sampling timer
 * (those timers were most of an idle gateway's CPU), a thread that works is measured finely, and a stall
 * shows either way.
 */
import { describe, expect, it } from 'vitest'
import { LoopDelayMonitor } from '../../../src/metrics/event-loop.js'

const sleep = (ms: number) => new Promise(resolve => setTimeout(resolve, ms))
/** Holds the event loop for `ms`, as a long synchronous task would. */
const stall = (ms: number) => {
  for (const end = performance.now() + ms; performance.now() < end; ) {
    /* busy */
  }
}

describe('event-loop delay monitor', () => {
  it('samples without its fine timer while the thread is idle, and still reports a stall there', async () => {
    const monitor = new LoopDelayMonitor(50)
    try {
      await sleep(50)
      expect(monitor.sample().max).toBeLessThan(0.1)
      expect(monitor.fine).toBe(false)
      await sleep(50)
      stall(200) // the tick that follows runs ~200 ms late
      expect(monitor.sample().max).toBeGreaterThanOrEqual(0.1)
    } finally {
      monitor.stop()
    }
  })

  it('turns the fine histogram on after a busy interval, measures a stall with it, and off again when idle', async () => {
    const monitor = new LoopDelayMonitor(1_000)
    try {
      stall(60)
      monitor.sample()
      expect(monitor.fine).toBe(true)
      await sleep(60) // the histogram's timer ticks
      stall(200)
      await sleep(60)
      const delay = monitor.sample()
      expect(delay.max).toBeGreaterThanOrEqual(0.1)
      expect(delay.p50).toBeLessThan(delay.max)
      expect(monitor.fine).toBe(true)
      await sleep(100)
      monitor.sample() // nothing ran since: idle
      expect(monitor.fine).toBe(false)
    } finally {
      monitor.stop()
    }
  })
})
