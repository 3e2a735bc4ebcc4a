/**
 * @module metrics/thread-counters
 * Counting in any thread without a message per event: increments add up here, and the thread's telemetry
 * (`thread-telemetry.ts`) takes the sums once a second and posts them as one batch. A thread that never starts
 * telemetry (unit tests running a link in-process) just keeps a handful of sums: the label sets are small and fixed.
 */
import type { CounterLabels } from '../protocol/thread.js'
import type { ThreadCounterKey, ThreadCounterSample } from './catalog.js'

const pending = new Map<string, ThreadCounterSample>()

export function countInThread(key: ThreadCounterKey, labels: CounterLabels = {}, by = 1): void {
  if (by <= 0) return
  const series = `${key}${JSON.stringify(labels)}`
  const sample = pending.get(series)
  if (sample) sample.value += by
  else pending.set(series, { key, labels, value: by })
}

/** The increments since the last call, and forgets them. */
export function takeThreadCounts(): ThreadCounterSample[] {
  const samples = [...pending.values()]
  pending.clear()
  return samples
}
