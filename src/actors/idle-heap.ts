/**
 * @module actors/idle-heap
 * A thread that falls quiet after work gives back the heap that work grew: the HTTP thread and each shard thread
 * (memory at small scale: a quiet gateway should not keep the heap a burst grew).
 *
 * V8 grows a thread's young generation while it allocates fast (pairing, a send burst; up to 32 MB of new space on
 * the HTTP thread, up to its cap on a shard thread) and keeps it once the thread idles. Its own memory reducer, which
 * would shrink an idle heap, is started only by a full collection, and a thread that only ever needed
 * young-generation collections (the HTTP thread while 50 sessions pair) never gets one: with 50 idle sessions the
 * HTTP thread held 34 MB of new space, 7 MB of it in use. So once a thread has been quiet for QUIET_SAMPLES samples
 * in a row and its committed heap has grown by GROWN_BYTES since its last reduction, it runs one memory-reducing
 * collection (`worker/heap-limit.ts`): the young generation back to its smallest size, bytecode no function ran
 * lately flushed, pooled pages returned. At most once per MIN_GAP_MS, so a thread under steady light load does not
 * collect over and over; a collection of a shard thread's ~50 MB heap takes tens of milliseconds.
 */
import { performance } from 'node:perf_hooks'
import v8 from 'node:v8'
import { collectGarbageReducingMemory } from './worker/heap-limit.js'

const SAMPLE_MS = 2_000
/** A sample in which the thread ran JavaScript less than this share of the time is quiet. */
const QUIET_UTILIZATION = 0.05
const QUIET_SAMPLES = 2
const GROWN_BYTES = 8 * 1024 * 1024
const MIN_GAP_MS = 60_000

export interface IdleHeapOptions {
  /** The thread's committed heap (bytes). */
  committed: () => number
  /** The memory-reducing collection. */
  collect: () => void
}

/** The decision alone, fed one sample at a time (by the timer below in a thread; by the unit test directly). */
export class IdleHeapReducer {
  #quiet = 0
  #baseline = 0
  #lastAt = -Infinity
  readonly #options: IdleHeapOptions

  constructor(options: IdleHeapOptions) {
    this.#options = options
  }

  /** One sample: the share of the interval the thread ran JavaScript, at `nowMs`. True when it collected. */
  sample(utilization: number, nowMs: number): boolean {
    this.#quiet = utilization < QUIET_UTILIZATION ? this.#quiet + 1 : 0
    if (this.#quiet < QUIET_SAMPLES || nowMs - this.#lastAt < MIN_GAP_MS) return false
    if (this.#options.committed() - this.#baseline < GROWN_BYTES) return false
    this.#options.collect()
    this.#baseline = this.#options.committed()
    this.#lastAt = nowMs
    this.#quiet = 0
    return true
  }
}

/** Samples this thread every SAMPLE_MS (an unref'd timer: it keeps no thread alive). */
export function startIdleHeapReducer(): { stop(): void } {
  const reducer = new IdleHeapReducer({
    committed: () => v8.getHeapStatistics().total_heap_size,
    collect: collectGarbageReducingMemory,
  })
  let elu = performance.eventLoopUtilization()
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization()
    const { utilization } = performance.eventLoopUtilization(now, elu)
    // a collection runs inside this callback: the next sample starts after it
    elu = reducer.sample(utilization, performance.now()) ? performance.eventLoopUtilization() : now
  }, SAMPLE_MS)
  timer.unref()
  return { stop: () => clearInterval(timer) }
}
