/**
 * @module actors/main/session-system
 * What the HTTP front end needs from the session system. `createApp(deps)` takes any `SessionSystem`, so route
 * tests pass a fake and `src/main.ts` passes the real one, `ShardedSessionSystem` (`sharded-system.ts`: actors on
 * worker-thread shards).
 */
import type { ClientCommand, ReplyValue } from '../../protocol/commands.js'
import type { ReadCommand } from '../../protocol/read-answers.js'
import type { SessionSnapshot } from '../../protocol/snapshot.js'
import type { OpsSource } from '../../metrics/source.js'
import type { QrView, ViewToken } from './view-tokens.js'
import type { CreationClient } from './session-creation.js'

export type SessionChange = { type: 'changed'; id: string } | { type: 'moved'; id: string } | { type: 'closing' }

export interface SessionSystem {
  /**
   * Registers a session and starts its actor; returns at once (the QR is produced in the background). `client` is
   * who asked, for the creation limits (session-creation.ts: 429 or 503 beyond them). `options.proxy` is the
   * session's own proxy URL in full, already checked by the HTTP edge (proxy/proxy-policy.ts).
   */
  createSession(client?: CreationClient, options?: { proxy?: string }): Promise<{ id: string; sessionId: string }>
  /**
   * The session's latest snapshot when `id` exists and `sessionId` is its secret (compared in constant time);
   * undefined otherwise: an unknown id and a wrong secret look the same (404). Answered from the main thread's
   * snapshot cache with no thread hop.
   */
  authenticate(id: string, sessionId: string): SessionSnapshot | undefined
  /**
   * Runs a command on the session's actor (in its worker thread) and resolves with the reply value; rejects with
   * a `GatewayError` (SESSION_NOT_CONNECTED, WORKER_CRASHED, OVERLOADED, ...). `answered`: the caller's answer to the
   * client; the command keeps its place among the session's MAX_PENDING_PER_SESSION until that settles too, so an
   * answer the client does not read counts as a command still in flight.
   */
  run<C extends ClientCommand>(
    id: string,
    command: C,
    signal?: AbortSignal,
    answered?: Promise<unknown>,
  ): Promise<ReplyValue<C>>
  /**
   * Runs a read (lists of groups, members, channels, posts) like `run`, and resolves with its answer's JSON:
   * the spec's body of the reply (protocol/read-answers.ts) as UTF-8 bytes, built on the session's thread, so the
   * HTTP front end only writes them.
   */
  read(id: string, command: ReadCommand, signal?: AbortSignal, answered?: Promise<unknown>): Promise<Uint8Array>
  /**
   * A view-only token for session `id`'s QR (view-tokens.ts), good until its QR window closes; the caller has
   * authenticated the session. Throws SESSION_NOT_FOUND, or SESSION_ALREADY_PAIRED when there is no QR to show.
   */
  createViewLink(id: string): ViewToken
  /** The QR a view token shows; throws VIEW_LINK_NOT_FOUND (unknown, expired, revoked) or VIEW_LINK_USED (paired). */
  viewQr(token: string): QrView
  /** Restarts QR pairing: logs a paired device out, clears credentials, new QR, new QR deadline. */
  resetSession(id: string): Promise<void>
  /** Logs out (if paired) and deletes the session and all its data. */
  deleteSession(id: string): Promise<void>
  /**
   * Calls `listener` whenever what GET /session shows of a session may have changed (`changed`: a new snapshot, or
   * the session is gone), when a session leaves this process for another node (`moved`, cluster mode: its state
   * did not change), and once when shutdown begins (`closing`). For the waiting GET /session (src/http/session-wait).
   */
  watch(listener: (change: SessionChange) => void): void
  /**
   * SIGTERM: tells the watchers (`closing`), waits for in-flight commands (up to a grace period), closes sockets
   * without logging out.
   */
  close(): Promise<void>
  /** Readiness and metrics sources for /readyz and /metrics; absent = always ready, no actor metrics. */
  ops?: OpsSource
}
