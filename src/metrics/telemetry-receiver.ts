/**
 * @module metrics/telemetry-receiver
 * The main-thread end of the metrics channel: sums the counter batches of every worker thread, keeps the latest
 * event-loop delay per thread (its own as `main`), and which shards finished their boot restore. The metrics
 * registry reads it at scrape time; `/readyz` asks it about the restore.
 */
import { BroadcastChannel } from 'node:worker_threads'
import { metricsChannel, type CounterSample, type LoopDelay, type TelemetryMessage } from '../protocol/thread.js'
import { LoopDelayMonitor } from './event-loop.js'
import { takeThreadCounts } from './thread-counters.js'
import { TELEMETRY_INTERVAL_MS } from './thread-telemetry.js'

const shardThread = (shard: number): string => `shard-${shard}`

export class TelemetryReceiver {
  readonly #channel: BroadcastChannel
  readonly #totals = new Map<string, CounterSample>()
  readonly #loops = new Map<string, LoopDelay>()
  readonly #restored = new Set<number>()
  readonly #mainLoop = new LoopDelayMonitor(TELEMETRY_INTERVAL_MS)
  readonly #timer: NodeJS.Timeout

  constructor(channelName: string) {
    this.#channel = new BroadcastChannel(metricsChannel(channelName))
    this.#channel.onmessage = (event: unknown) => this.apply((event as MessageEvent<TelemetryMessage>).data)
    this.#channel.unref()
    // The main thread measures itself on the same rhythm as the workers.
    this.#timer = setInterval(
      () =>
        this.apply({
          type: 'batch',
          thread: 'main',
          counters: takeThreadCounts(),
          loop: this.#mainLoop.sample(),
        }),
      TELEMETRY_INTERVAL_MS,
    )
    this.#timer.unref()
  }

  apply(message: TelemetryMessage): void {
    if (message.type === 'restored') {
      this.#restored.add(message.shard)
      return
    }
    this.#loops.set(message.thread, message.loop)
    for (const sample of message.counters) {
      const series = `${sample.key}${JSON.stringify(sample.labels)}`
      const total = this.#totals.get(series)
      if (total) total.value += sample.value
      else this.#totals.set(series, { ...sample })
    }
  }

  /** Every counter series with its total since the process started. */
  counters(): CounterSample[] {
    return [...this.#totals.values()]
  }

  /** The latest event-loop delay of each thread (main, shard-0, ...). */
  loopDelays(): ReadonlyMap<string, LoopDelay> {
    return this.#loops
  }

  /** True once the shard's current thread has restored its sessions. */
  isRestored(shard: number): boolean {
    return this.#restored.has(shard)
  }

  /** The shard's thread is gone: its replacement must restore again, and the old thread's loop figure is stale. */
  threadLost(shard: number): void {
    this.#restored.delete(shard)
    this.#loops.delete(shardThread(shard))
  }

  close(): void {
    clearInterval(this.#timer)
    this.#mainLoop.stop()
    this.#channel.close()
  }
}
