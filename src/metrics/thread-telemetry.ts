/**
 * @module metrics/thread-telemetry
 * The worker-thread end of the metrics channel: once a second it posts one batch with the counter increments of
 * the thread (`thread-counters.ts`) and its event-loop delay. It also announces when the shard's boot restore is
 * done (`/readyz`). Nothing here keeps the thread alive.
 */
import { BroadcastChannel } from 'node:worker_threads'
import { metricsChannel, type TelemetryMessage } from '../protocol/thread.js'
import { LoopDelayMonitor } from './event-loop.js'
import { takeThreadCounts } from './thread-counters.js'

export const TELEMETRY_INTERVAL_MS = 1_000

export interface ThreadTelemetry {
  announceRestored(shard: number): void
  stop(): void
}

/** Starts posting this thread's telemetry on the session system's metrics channel. */
export function startThreadTelemetry(
  channelName: string,
  thread: string,
  intervalMs = TELEMETRY_INTERVAL_MS,
): ThreadTelemetry {
  const channel = new BroadcastChannel(metricsChannel(channelName))
  channel.unref()
  const loop = new LoopDelayMonitor(intervalMs)
  const post = (message: TelemetryMessage) => channel.postMessage(message)
  const timer = setInterval(
    () => post({ type: 'batch', thread, counters: takeThreadCounts(), loop: loop.sample() }),
    intervalMs,
  )
  timer.unref()
  return {
    announceRestored: shard => post({ type: 'restored', shard }),
    stop() {
      clearInterval(timer)
      loop.stop()
      channel.close()
    },
  }
}
