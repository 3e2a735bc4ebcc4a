/**
 * @module actors/main/session-mode
 * What the session system does differently as one process on its own store (embedded-mode.ts) or as one node of a
 * cluster (cluster mode builds its own, under src/cluster/): the one seam a mode plugs into, so the system itself
 * never asks which mode it runs in and the single-node path runs no code of cluster mode.
 *
 * A mode is given once, before the system starts (`SessionMode`: what the threads get, the main thread's store, how
 * view links are signed); once the system's parts exist it binds to them (`open`: `ModeParts` in, `ModeRun` out).
 */
import type { Logger } from 'pino'
import type { StoreEngine } from '../../protocol/thread.js'
import type { SessionPolicy } from '../../protocol/session-policy.js'
import type { SessionSnapshot } from '../../protocol/snapshot.js'
import type { SessionRecord, Store } from '../../storage/types.js'
import type { ActorSettings } from '../settings.js'
import type { SessionCreation } from './session-creation.js'
import type { SnapshotCache } from './snapshot-cache.js'
import type { ViewTokenMinter } from './view-tokens.js'

// What a mode may use of the session system besides its parts: how creation is limited, how ids are drawn and
// secrets compared, how view tokens are minted.
export type { CreationClient, SessionCreation } from './session-creation.js'
export { unpairedCap, unpairedFull } from './session-creation.js'
export { newSessionIds, secretMatches } from './ids.js'
export type { ViewTokenMinter } from './view-tokens.js'

export interface SessionMode {
  /** What the shards' actors do in this mode (protocol/session-policy.ts). */
  policy: SessionPolicy
  /** Where the shard threads store their sessions; default: lmdb under DATA_DIR. */
  storeEngine?: StoreEngine | undefined
  /** The main thread's store; default: lmdb under DATA_DIR, opened (and closed) by the system. */
  store?: Store | undefined
  /** How view tokens are signed so that every node can route one; default: random tokens of this process. */
  viewTokens?: ViewTokenMinter | undefined
  /**
   * What a request gets once the system is closing: one process, 503 SHUTTING_DOWN; a cluster node, SESSION_MOVING
   * (the sessions go on on the other nodes, and a node that forwarded the request asks again there).
   */
  closedError: 'SHUTTING_DOWN' | 'SESSION_MOVING'
  /** Binds the mode to the system's parts; runs once, before any session starts. */
  open(parts: ModeParts): ModeRun
}

/** What the session system offers a mode: its store, its snapshot cache, and how a session's actor runs. */
export interface ModeParts {
  settings: ActorSettings
  store: Store
  /** Every live session of this process (awaiting a QR or paired), as GET /session answers it. */
  cache: SnapshotCache
  /** A stored session's first snapshot (a paired one shows its device id at once). */
  snapshotFromStore(record: SessionRecord): Promise<SessionSnapshot>
  /** Commands of `id` admitted and not finished. */
  pending(id: string): number
  /** The shard a session runs on (placed now if it was not yet). */
  shardOf(id: string): number
  /** Writes where a session runs (a stored row's shard, or a new one's). */
  place(id: string, shard: number): void
  /** The shard a new session goes to (shard-placement.ts). */
  chooseShard(): number
  /** Starts (or finds) the session's actor on its shard. */
  startActor(id: string): Promise<void>
  /** Stops the session's actor on its shard without logging out. */
  releaseActor(id: string): Promise<void>
  /** Starts a shard's thread now, and holds /readyz until the thread announces its restore. */
  restoreShard(shard: number): void
  isClosing(): boolean
  log: Logger
}

/** A mode bound to one session system. */
export interface ModeRun {
  /** At start: the stored sessions this process runs by itself (one process: all of them, restored by their shards). */
  boot(): Promise<void>
  /** How a new session is registered and where it runs. */
  creation: SessionCreation
  /** The shard written in a new session's row, so that its thread's own restore finds it there after a crash. */
  shardOfNew(): number | undefined
  /** A shard's thread died; `inShard` tells its sessions. The replacement thread starts empty. */
  threadLost(shard: number, inShard: (id: string) => boolean): void
  /** Resolves once `id` may run a command here; absent: at once (one process). */
  ready?: ((id: string) => Promise<void>) | undefined
  /** Whether a session dropped now is moving to another node rather than deleted (session-changes.ts). */
  isMoving(id: string): boolean
}
