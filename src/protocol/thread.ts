/**
 * @module protocol/thread
 * What flows between the main thread and the shard workers besides piscina's request/reply: the worker's start-up
 * data, the task envelope (a `Task` plus a correlation id for aborts), and the two BroadcastChannels: actors post
 * `SnapshotEvent`s on `<name>:events`; the main thread posts `ControlMessage`s (abort a task) on `<name>:control`.
 */
import type { Config } from '../config.js'
import type { Task } from './commands.js'

export interface ShardWorkerData {
  shard: number
  shards: number
  dataDir: string
  /** The parsed settings (plain data, so it crosses to the thread as is). */
  config: Config
  /** Module whose `createLink` (or default) export is the `LinkFactory`: a path or file URL. */
  linkModule: string
  /** Base name of this actor system's BroadcastChannels (unique per system instance). */
  channelName: string
  /** The process-wide count of media sends, shared by every shard thread (media-slots.ts). */
  mediaSlots: SharedArrayBuffer
}

/** A piscina task: the protocol `Task` plus an id the main thread can name in an abort. */
export interface ShardTask extends Task {
  taskId: number
}

export type ControlMessage = { type: 'abort'; taskId: number }

export const eventsChannel = (name: string): string => `${name}:events`
export const controlChannel = (name: string): string => `${name}:control`
