/**
 * @module actors/settings
 * The session system's slice of the settings (docs/operating.md): how many shards and how much each thread may hold,
 * how much one session and one shard may have in flight, how many sessions the process (or cluster) hosts and how
 * many of them may await a scan, how long a QR window lasts, and the timers of a session's actor (typing,
 * reconnecting, restoring at start, shutting down).
 */
import os from 'node:os'
import { logSettings, type LogSettings } from '../logger.js'
import { linkSettings, type LinkSettings } from '../platform/settings.js'
import { int, pickSettings, type SliceOf } from '../settings/fields.js'
import { machineSessionCapacity } from './session-capacity.js'
import { storageSettings, type StorageSettings } from '../storage/settings.js'

export const ACTOR_SETTINGS = {
  /** Worker threads hosting session actors; a session always lives on the same one. */
  SHARDS: int(Math.max(2, os.availableParallelism()), 1),
  /**
   * Sessions a shard's thread takes before the next shard's thread starts (actors/main/shard-placement.ts): a thread
   * costs about 60–70 MB whether it runs 1 session or 500. A shard whose thread has been busy for a minute starts
   * the next one sooner. Once every shard runs, new sessions go to the one holding fewest.
   */
  SHARD_FILL: int(500, 1),
  /**
   * The young generation of each shard thread's heap, MB (V8's new space, where short-lived objects start, is two
   * thirds of it). Left alone V8 grows a busy thread's new space to 64 MB and an idle one keeps it; this caps it
   * (docs/benchmarks-log.md, "The young generation of the shard threads").
   */
  SHARD_YOUNG_GENERATION_MB: int(24, 3),
  /**
   * Commands in flight per shard before admission turns fair (src/actors/main/admission.ts): past it, only sessions
   * holding less than an even share still get in (the others 429); past twice it, 503 for everyone.
   */
  MAX_QUEUE_PER_SHARD: int(1_000, 1),
  /** Commands one session may have in flight or queued (429 with Retry-After beyond): one tenant cannot fill a shard. */
  MAX_PENDING_PER_SESSION: int(32, 1),
  /**
   * Sessions one process holds, or in cluster mode the whole cluster (POST /session answers 503 when full); 0 = no
   * cap. Unset: what this machine holds by its memory and open-file limit (./session-capacity.ts), logged at start.
   */
  MAX_SESSIONS: int(() => machineSessionCapacity().sessions, 0),
  /** Sessions awaiting a scan at once, as a percentage of MAX_SESSIONS, whoever created them (503 beyond). */
  UNPAIRED_MAX_PERCENT: int(20, 1).refine(v => v <= 100, 'expected 1..100'),
  /** Unpaired sessions one client (address, IPv6 /64) may hold at once (429 beyond); 0 = no cap. Not for callers
   * that proved CREATE_SESSION_TOKEN. */
  UNPAIRED_PER_CLIENT: int(10, 0),
  /** Unscanned sessions are deleted after this long (spec: about 3 minutes). */
  SESSION_QR_LIFETIME_MS: int(180_000, 1),
  /** A never-paired session is deleted this long after it was created (or last logged out), resets or not. */
  UNPAIRED_MAX_LIFETIME_MS: int(10 * 60_000, 1),
  /** Typing indicator duration (spec: 5 seconds). */
  TYPING_MS: int(5_000, 1),
  /** Reconnect backoff after a dropped connection. */
  RECONNECT_MIN_MS: int(1_000, 1),
  RECONNECT_MAX_MS: int(60_000, 1),
  /** Sessions each shard brings up at once on start (the rest wait their turn; a command starts its own at once). */
  RESTORE_CONCURRENCY: int(25, 1),
  /** How long one restoring session may hold its slot while its link is still connecting. */
  RESTORE_SLOT_MS: int(10_000, 1),
  /** Grace period for in-flight requests on SIGTERM. */
  SHUTDOWN_GRACE_MS: int(10_000, 0),
  /**
   * New 1:1 chats one session may open per UTC day (actors/session/new-chat-brake.ts), below the platform's own
   * cap; past it, 429 `account restricted: …` until midnight UTC. 0 = no limit of the gateway's own.
   */
  NEW_CHATS_PER_DAY: int(0, 0),
  /** Existing conversations (numbers only) kept per session for the brake on new chats; past it the oldest go. */
  CONVERSATIONS_MAX: int(50_000, 1),
}

export type ActorSettings = SliceOf<typeof ACTOR_SETTINGS>

export const actorSettings = (values: ActorSettings): ActorSettings => pickSettings(values, ACTOR_SETTINGS)

/**
 * What a shard thread reads of the settings (the thread contract's `ShardWorkerData.settings`): the slices of the
 * parts that run there, its actors', their links', storage's and the logs'. A store engine of a mode (cluster mode's
 * Redis) gets its own beside them (`ShardWorkerData.storeEngine`).
 */
export type ShardSettings = ActorSettings & LinkSettings & StorageSettings & LogSettings

/** Exactly a shard's settings out of the whole (plain data: they cross to the thread as they are). */
export const shardSettings = (values: ShardSettings): ShardSettings => ({
  ...actorSettings(values),
  ...linkSettings(values),
  ...storageSettings(values),
  ...logSettings(values),
})
