/**
 * @module actors/main/shard-thread
 * One shard = one piscina pool with exactly one thread (strict affinity: the actor and its socket live in that
 * thread's memory). The actor's mailbox does the ordering, so the pool lets many tasks run at once in the thread.
 *
 * A shard starts its thread only when it first has a session: at boot when the store holds one of its sessions
 * (`start()`), else on its first task. A thread is a V8 isolate with the platform client loaded, about 70 MB and an
 * idle trickle of CPU, which a gateway with no session on that shard would pay for nothing. Once started, piscina
 * keeps exactly one thread and replaces it when it dies, as before.
 *
 * Failure mapping: a task in flight when the thread dies → WORKER_CRASHED (piscina starts a replacement thread,
 * which restores the shard's sessions from storage); too many tasks for the shard → OVERLOADED (503). Aborts are
 * not given to piscina — aborting a running piscina task terminates its thread and every session on it — but sent
 * to the shard's own control channel (no other thread hears it), where the actor drops or cancels the command.
 */
import type { EventLoopUtilization } from 'node:perf_hooks'
import { BroadcastChannel, type Worker } from 'node:worker_threads'
import type { Logger } from 'pino'
import { Piscina } from 'piscina'
import { fromWire, GatewayError } from '../../protocol/errors.js'
import { Admission } from './admission.js'
import type { ActorCommand, ReplyValue } from '../../protocol/commands.js'
import type { ReadCommand } from '../../protocol/read-answers.js'
import type { ShardSettings } from '../settings.js'
import {
  controlChannel,
  type ControlMessage,
  type LifecycleRequest,
  type Reply,
  type ShardReplies,
  type ShardRequestOf,
  type ShardStats,
  type ShardTask,
  type ShardWorkerData,
} from '../../protocol/thread.js'

let lastTaskId = 0

/** A thread that ran JavaScript this share of a load sample's interval was busy in it. */
const BUSY_UTILIZATION = 0.75
/**
 * Busy samples in a row (5 s apart: shards.ts) before the shard counts as busy: a minute of sustained load.
 * Pairing 200 sessions at once keeps a thread busy for 25-30 s, and with a shorter window started a second thread
 * that then idled beside the first (the side-by-side at N = 200, docs/benchmarks-log.md).
 */
const BUSY_SAMPLES = 12

export interface ShardThreadOptions {
  data: ShardWorkerData<ShardSettings>
  filename: string
  logger: Logger
  /** Called when the shard's thread is gone (crash or exit) outside shutdown, before its tasks are failed. */
  onThreadLost?: (shard: number) => void
}

export class ShardThread {
  readonly shard: number
  #pool: Piscina | undefined
  readonly #options: ShardThreadOptions
  readonly #control: BroadcastChannel
  readonly #logger: Logger
  readonly #limit: number
  #inFlight = 0
  /** The last load sample: the thread it was taken of, and its event-loop utilization then. */
  #sampled: { thread: Worker; elu: EventLoopUtilization } | undefined
  #busySamples = 0

  #destroying = false

  constructor(options: ShardThreadOptions) {
    const { data, logger } = options
    this.#options = options
    this.shard = data.shard
    this.#logger = logger.child({ shard: data.shard })
    // Admission (main thread, admission.ts) decides who gets in; this is the backstop at its hard limit.
    this.#limit = Admission.hardLimit(data.settings.MAX_QUEUE_PER_SHARD)
    this.#control = new BroadcastChannel(controlChannel(data.channelName, data.shard))
    this.#control.unref()
  }

  /** Whether the shard's thread was ever started (it is then kept, and replaced when it dies). */
  get started(): boolean {
    return this.#pool !== undefined
  }

  /** Starts the shard's thread unless it runs already (or the pool is being destroyed). */
  start(): void {
    if (this.#pool || this.#destroying) return
    const { data, filename, onThreadLost } = this.#options
    const pool = new Piscina({
      filename,
      workerData: data,
      minThreads: 1,
      maxThreads: 1,
      idleTimeout: Infinity,
      concurrentTasksPerWorker: this.#limit + 64, // + room for lifecycle tasks, which bypass the limit
      maxQueue: this.#limit,
      // Atomics.wait would block the thread's event loop between tasks: sockets and timers live there.
      atomics: 'disabled',
      // Left to itself V8 lets a busy thread's new space grow to 64 MB, which pairing or a send burst reaches and an
      // idle thread keeps. Capped, scavenges come more often but each has less to visit (docs/benchmarks-log.md).
      resourceLimits: { maxYoungGenerationSizeMb: data.settings.SHARD_YOUNG_GENERATION_MB },
    })
    // piscina emits 'error' for a thread that fails with no task in flight; unhandled, it would crash the process.
    pool.on('error', err => this.#logger.error({ err }, 'shard worker failed; piscina replaces it'))
    // The sockets of every session on a lost thread are gone with it; say so at once rather than keep showing
    // them connected until the replacement thread has restored them.
    pool.on('workerDestroy', () => {
      if (!this.#destroying) onThreadLost?.(this.shard)
    })
    this.#pool = pool
  }

  /**
   * Takes a load sample: how much of the time since the last one the shard's thread spent running (its event-loop
   * utilization, read from this thread without disturbing it). A replaced thread starts a new series.
   */
  sampleLoad(): void {
    const thread = this.#pool?.threads[0]
    if (!thread) return
    const elu = thread.performance.eventLoopUtilization()
    const since = this.#sampled?.thread === thread ? this.#sampled.elu : undefined
    this.#sampled = { thread, elu }
    if (!since) return
    const { utilization } = thread.performance.eventLoopUtilization(elu, since)
    this.#busySamples = utilization >= BUSY_UTILIZATION ? this.#busySamples + 1 : 0
  }

  /** Whether the thread was busy in the last BUSY_SAMPLES load samples. */
  get busy(): boolean {
    return this.#busySamples >= BUSY_SAMPLES
  }

  get inFlight(): number {
    return this.#inFlight
  }

  get threads(): number {
    return this.#pool?.threads.length ?? 0
  }

  /** Load of the shard; run/wait times are piscina's histograms (ms; run time includes the mailbox wait). */
  stats(): Omit<ShardStats, 'sessions'> {
    const pool = this.#pool
    if (!pool) {
      return {
        shard: this.shard,
        inFlight: this.#inFlight,
        queued: 0,
        completed: 0,
        threads: 0,
        runTimeMs: { p50: 0, p99: 0 },
        waitTimeMs: { p50: 0, p99: 0 },
      }
    }
    const { runTime, waitTime } = pool.histogram
    return {
      shard: this.shard,
      inFlight: this.#inFlight,
      queued: pool.queueSize,
      completed: pool.completed,
      threads: pool.threads.length,
      runTimeMs: { p50: runTime.p50, p99: runTime.p99 },
      waitTimeMs: { p50: waitTime.p50, p99: waitTime.p99 },
    }
  }

  /**
   * Runs a command on session `id`'s actor, in its mailbox order, within the shard's limit (OVERLOADED past it);
   * resolves with the command's reply or rejects with a GatewayError. The task is the one object built per command.
   */
  command<C extends ActorCommand>(id: string, command: C, signal?: AbortSignal): Promise<ReplyValue<C>> {
    return this.#post({ type: 'command', id, command, taskId: 0 }, signal, false)
  }

  /**
   * Runs a read on session `id`'s actor like `command`, and resolves with its answer's JSON bytes, built on the
   * shard's thread and moved here, not cloned (protocol/read-answers.ts).
   */
  read(id: string, command: ReadCommand, signal?: AbortSignal): Promise<Uint8Array> {
    return this.#post({ type: 'read', id, command, taskId: 0 }, signal, false)
  }

  /** Starts, releases or shuts down (SIGTERM) on the shard's thread; never refused for load. */
  lifecycle<K extends LifecycleRequest['type']>(request: ShardRequestOf<K>): Promise<ShardReplies[K]> {
    return this.#post({ ...request, taskId: 0 }, undefined, true)
  }

  /**
   * Posts a task to the shard's thread, starting it if it never ran (shards.ts shuts down only started ones).
   * `T` is the reply the worker's handler of this task type is typed to give (actors/worker/worker.ts
   * and actors/session/commands.ts, both checked against the same maps of the thread contract): piscina carries it
   * as a structured clone, which no type follows across.
   */
  async #post<T>(task: ShardTask, signal: AbortSignal | undefined, bypassLimit: boolean): Promise<T> {
    if (!bypassLimit && this.#inFlight >= this.#limit) throw new GatewayError('OVERLOADED')
    signal?.throwIfAborted()
    if (!this.#pool) this.start()
    const pool = this.#pool
    if (!pool || pool.threads.length === 0) {
      // piscina gives up replacing a thread that dies before it ever became ready (e.g. the store cannot open).
      this.#logger.error('shard has no worker thread')
      throw new GatewayError('INTERNAL')
    }
    // numbered as it is posted, so a thread sees the numbers of its tasks rise (actors/worker/task-aborts.ts)
    const taskId = ++lastTaskId
    task.taskId = taskId
    this.#inFlight++
    const onAbort = () => this.#control.postMessage({ type: 'abort', taskId } satisfies ControlMessage)
    signal?.addEventListener('abort', onAbort, { once: true })
    try {
      const work: Promise<Reply<T>> = pool.run(task)
      const reply = await (signal ? raceAbort(work, signal) : work).catch(err => {
        if (signal?.aborted && err === signal.reason) throw err
        throw this.#infrastructureError(err, task)
      })
      if (!reply.ok) throw fromWire(reply.error)
      return reply.value
    } finally {
      this.#inFlight--
      signal?.removeEventListener('abort', onAbort)
    }
  }

  /** Test hook (GATEWAY_TEST_HOOKS): ends the shard's thread the way a crash would; piscina starts a new one. */
  async terminateThread(): Promise<void> {
    await this.#pool?.threads[0]?.terminate()
  }

  async destroy(): Promise<void> {
    this.#destroying = true
    this.#control.close()
    await this.#pool?.destroy()
  }

  #infrastructureError(err: unknown, task: ShardTask): GatewayError {
    if (err instanceof Error && err.message === 'Task queue is at limit') return new GatewayError('OVERLOADED')
    const session = task.type === 'shutdown' ? undefined : task.id
    const command = task.type === 'command' || task.type === 'read' ? task.command.type : task.type
    this.#logger.warn({ err, session, command }, 'shard worker died during a task')
    return new GatewayError('WORKER_CRASHED')
  }
}

/** Settles with `work`, or rejects with the signal's reason as soon as it aborts (the work itself goes on). */
function raceAbort<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason)
    signal.addEventListener('abort', onAbort, { once: true })
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort))
  })
}
