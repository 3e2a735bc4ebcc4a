/**
 * @module actors/main/session-creation
 * How a session system registers a new session: under which limits, and where it runs. Each limit protects
 * someone else than the caller (docs/operating.md: Limits, SECURITY.md: Denial of service):
 *   - MAX_SESSIONS sessions at most (the box's, or the cluster's, capacity: 503);
 *   - at most UNPAIRED_MAX_PERCENT of MAX_SESSIONS awaiting a scan at once, whoever created them: a session nobody
 *     scans holds a platform connection for minutes, and without this cap enough addresses (an IPv6 /56 is 256
 *     clients) could fill MAX_SESSIONS with them, after which nobody gets a session (503);
 *   - UNPAIRED_PER_CLIENT of them per client, so one address cannot take that whole share (429); not for a caller
 *     that proved CREATE_SESSION_TOKEN (the operator's own backend, creating sessions for its customers).
 * The embedded engine counts on this process's snapshot cache; cluster mode counts across every node in Redis
 * (cluster/creation.ts) and places the session on the least loaded node.
 */
import type { ActorSettings } from '../settings.js'
import { GatewayError, retryAfterFromMs } from '../../protocol/errors.js'
import type { SessionRecord, Store } from '../../storage/types.js'
import type { SnapshotCache } from './snapshot-cache.js'
import { UnpairedClients } from './unpaired-clients.js'

/** Who asks for a new session. */
export interface CreationClient {
  /** The per-client key (http/client-key.ts: an address, an IPv6 /64). */
  key: string
  /** Whether the caller proved CREATE_SESSION_TOKEN: not capped per client, only globally. */
  trusted: boolean
}

export const ANONYMOUS: CreationClient = { key: 'unknown', trusted: false }

export interface SessionCreation {
  /** The new session's ids, and the node it is placed on (undefined: this one). */
  draw(): { id: string; sessionId: string; node?: string | undefined }
  /** Checks the limits for `client` and stores `record`, as one step; throws their 429/503 GatewayErrors. */
  register(record: SessionRecord, client: CreationClient): Promise<void>
  /** Starts the registered session where it was placed. */
  start(record: SessionRecord, node: string | undefined): Promise<void>
}

type CreationSettings = Pick<ActorSettings, 'MAX_SESSIONS' | 'UNPAIRED_MAX_PERCENT' | 'UNPAIRED_PER_CLIENT'>

/** How many sessions may await a scan at once (0: no cap, when MAX_SESSIONS is none). */
export const unpairedCap = (s: CreationSettings): number =>
  s.MAX_SESSIONS > 0 ? Math.max(1, Math.floor((s.MAX_SESSIONS * s.UNPAIRED_MAX_PERCENT) / 100)) : 0

/** 503 with Retry-After: the server holds its share of sessions awaiting a scan; the first expires in `waitMs`. */
export function unpairedFull(cap: number, waitMs: number): GatewayError {
  return new GatewayError('UNPAIRED_FULL', { max: cap, retryAfterSeconds: retryAfterFromMs(waitMs) })
}

export interface EmbeddedCreationParts {
  settings: CreationSettings
  store: Store
  cache: SnapshotCache
  drawIds: () => { id: string; sessionId: string }
  /** Starts the session's actor (and puts it in the cache first). */
  start(record: SessionRecord): Promise<void>
  log: { error(obj: object, msg: string): void }
}

/** One process on its own store (lmdb): every count is this process's snapshot cache. */
export function embeddedCreation(parts: EmbeddedCreationParts): SessionCreation {
  const { settings, cache, store } = parts
  const cap = unpairedCap(settings)
  const perClient = new UnpairedClients(
    settings.UNPAIRED_PER_CLIENT,
    id => cache.snapshotOf(id)?.qrDeadline ?? undefined,
  )

  /** Sessions awaiting a scan now, and when the first of them expires. */
  function awaitingScan(now: number): { count: number; soonest: number } {
    let count = 0
    let soonest = Infinity
    for (const id of cache.ids()) {
      const deadline = cache.snapshotOf(id)?.qrDeadline
      if (deadline === null || deadline === undefined || deadline <= now) continue
      count++
      soonest = Math.min(soonest, deadline)
    }
    return { count, soonest }
  }

  return {
    draw: () => parts.drawIds(),
    async register(record, client) {
      if (settings.MAX_SESSIONS > 0 && cache.size >= settings.MAX_SESSIONS)
        throw new GatewayError('SESSIONS_FULL', { max: settings.MAX_SESSIONS })
      if (cap > 0) {
        const now = Date.now()
        const { count, soonest } = awaitingScan(now)
        if (count >= cap) throw unpairedFull(cap, soonest - now)
      }
      if (!client.trusted) perClient.check(client.key)
      try {
        await store.putSession(record)
      } catch (err) {
        // Disk full, quota, read-only volume...: the operator's to fix, the client's to retry later (503).
        parts.log.error({ err }, 'could not register a new session')
        throw new GatewayError('STORAGE_UNAVAILABLE')
      }
      if (!client.trusted) perClient.add(client.key, record.id)
    },
    start: record => parts.start(record),
  }
}
