/**
 * @module protocol/thread
 * The thread contract: everything that crosses between the main thread and the shard workers, in one file.
 *
 * - start-up: `ShardWorkerData`, the worker's `workerData`;
 * - piscina request/reply: a `ShardTask` (a command for one session's actor, a read whose answer's JSON the
 *   thread builds, `start` a session's actor, or `shutdown` the whole shard) answered by a `Reply`, whose errors are
 *   plain `WireError` data;
 * - BroadcastChannels named after the system instance: actors post `SnapshotEvent`s on `<name>:events`, the main
 *   thread posts `ControlMessage`s (abort a task) on `<name>:control:<shard>`, the task's shard only, and every
 *   thread posts `TelemetryMessage`s (counters, event-loop delay, restore done) on `<name>:metrics`;
 * - `ShardStats`, the load of one shard as the main thread reads it from piscina.
 */
import type { ActorCommand, ActorCommandType, ReplyValues } from './commands.js'
import type { ReadCommand } from './read-answers.js'
import type { WireError } from './errors.js'
import type { SessionSnapshot } from './snapshot.js'
import type { SessionPolicy } from './session-policy.js'

/**
 * A store engine other than lmdb, loaded by path in each shard thread (actors/worker/shard-store.ts): cluster mode's
 * Redis. `settings` is the engine's own slice, plain data.
 */
export interface StoreEngine {
  module: string
  settings: unknown
}

/** `Settings`: what the thread reads of the settings, plain data; the actors choose it (actors/settings.ts). */
export interface ShardWorkerData<Settings = unknown> {
  shard: number
  shards: number
  settings: Settings
  /** The platform module (`platform/link.ts`, `PlatformModule`) the worker loads: a path or file URL. */
  linkModule: string
  /** Base name of this session system's BroadcastChannels (unique per system instance). */
  channelName: string
  /** The process-wide counts of media sends (downloading, and doing CPU work), shared by every shard thread
   * (media-slots.ts). */
  mediaSlots: { downloads: SharedArrayBuffer; cpu: SharedArrayBuffer }
  /** What the shard's actors do in this mode (one process, or a cluster node). */
  policy: SessionPolicy
  /** Where the shard stores its sessions when not in lmdb under DATA_DIR. */
  storeEngine?: StoreEngine | undefined
}

/** What the main thread asks of a shard. `id` is the session's public id (never its secret). */
export type ShardRequest =
  /** Runs a command on the session's actor, in its mailbox order. */
  | { type: 'command'; id: string; command: ActorCommand }
  /**
   * Runs a read on the session's actor like a command, and answers its spec body's JSON (read-answers.ts) as a
   * `Uint8Array` whose ArrayBuffer is transferred to the main thread, not cloned.
   */
  | { type: 'read'; id: string; command: ReadCommand }
  /** Creates (or finds) the actor of a registered session: a new session, or one this thread has not seen. */
  | { type: 'start'; id: string }
  /** Cluster mode: stops the session's actor here without logging out, for another node to run it. */
  | { type: 'release'; id: string }
  /** SIGTERM: closes every socket of the shard without logging out, then the thread's resources. */
  | { type: 'shutdown' }

/** The requests that start, stop or release rather than run a command (never refused for load). */
export type LifecycleRequest = Exclude<ShardRequest, { type: 'command' | 'read' }>

export type ShardRequestOf<K extends ShardRequest['type']> = Extract<ShardRequest, { type: K }>

/**
 * What each request answers: a command its own type's reply (`ReplyValues`, commands.ts, which the main thread reads
 * as `ReplyValue<C>`), `release` whether the session ran on the shard. The worker's handlers are typed by this map.
 */
export interface ShardReplies {
  command: ReplyValues[ActorCommandType]
  read: Uint8Array
  start: null
  release: boolean
  shutdown: null
}

/** A piscina task: a request plus an id the main thread can name in an abort. */
export type ShardTask = ShardRequest & { taskId: number }

/** The worker's answer to every task: it always resolves, errors travel as `{ code, message }` data. */
export type Reply<T> = { ok: true; value: T } | { ok: false; error: WireError }

/** Main thread → the task's shard, on its control channel (aborting a running piscina task would end its thread). */
export type ControlMessage = { type: 'abort'; taskId: number }

/** Actors → main thread, on the events channel. */
export type SnapshotEvent = { type: 'snapshot'; snapshot: SessionSnapshot } | { type: 'deleted'; id: string }

export type CounterLabels = Record<string, string>

/** One counter series and how much it grew (a batch) or its total (the main thread's sum); keys: metrics/catalog.ts. */
export interface CounterSample<Key extends string = string> {
  key: Key
  labels: CounterLabels
  value: number
}

/** Event-loop delay of one thread over the last interval, in seconds. */
export interface LoopDelay {
  p50: number
  p99: number
  max: number
}

/** Any thread → main thread, on the metrics channel. */
export type TelemetryMessage =
  | { type: 'batch'; thread: string; counters: CounterSample[]; loop: LoopDelay }
  | { type: 'restored'; shard: number }

/** Load of one shard; run/wait times are piscina's histograms (ms; run time includes the mailbox wait). */
export interface ShardStats {
  shard: number
  /** Sessions placed on the shard (actors/main/shard-placement.ts). */
  sessions: number
  inFlight: number
  queued: number
  completed: number
  threads: number
  runTimeMs: { p50: number; p99: number }
  waitTimeMs: { p50: number; p99: number }
}

export const eventsChannel = (name: string): string => `${name}:events`
/** Each shard has its own: an abort goes to the one thread that runs its task. */
export const controlChannel = (name: string, shard: number): string => `${name}:control:${shard}`
export const metricsChannel = (name: string): string => `${name}:metrics`
