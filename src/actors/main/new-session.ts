/**
 * @module actors/main/new-session
 * The steps of POST /session on the session system, in order: draw the new session's ids (and, in a cluster, its
 * node), write its row (its QR deadline, its proxy, the shard the mode has it run on), register it under the mode's
 * limits (session-creation.ts: 429 or 503 beyond them), place it on its shard, start it. The QR is produced in the
 * background and arrives through the snapshot cache.
 */
import type { ActorSettings } from '../settings.js'
import type { SessionRecord } from '../../storage/types.js'
import { hashSecret } from './ids.js'
import { ANONYMOUS, type CreationClient } from './session-creation.js'
import type { ModeRun } from './session-mode.js'
import type { ShardPlacement } from './shard-placement.js'
import type { SystemShutdown } from './system-shutdown.js'

export interface NewSessionParts {
  settings: Pick<ActorSettings, 'SESSION_QR_LIFETIME_MS' | 'UNPAIRED_MAX_LIFETIME_MS'>
  /** The mode's creation (limits, ids, start) and the shard it writes in a new row. */
  mode: Pick<ModeRun, 'creation' | 'shardOfNew'>
  placement: ShardPlacement
  /** Refuses new sessions once shutdown begins. */
  shutdown: SystemShutdown
}

export interface NewSessionOptions {
  /** The session's own proxy URL in full, already checked by the HTTP edge. */
  proxy?: string
}

export async function createNewSession(
  parts: NewSessionParts,
  client: CreationClient = ANONYMOUS,
  { proxy }: NewSessionOptions = {},
): Promise<{ id: string; sessionId: string }> {
  const { settings, mode, placement } = parts
  parts.shutdown.assertOpen()
  const { id, sessionId, node } = mode.creation.draw()
  const now = Date.now()
  const shard = mode.shardOfNew()
  const record: SessionRecord = {
    id,
    secretHash: hashSecret(sessionId),
    createdAt: now,
    unpairedSince: now,
    qrDeadline: now + Math.min(settings.SESSION_QR_LIFETIME_MS, settings.UNPAIRED_MAX_LIFETIME_MS),
    ...(proxy === undefined ? {} : { proxy }),
    ...(shard === undefined ? {} : { shard }),
  }
  await mode.creation.register(record, client)
  if (record.shard !== undefined) placement.place(id, record.shard)
  await mode.creation.start(record, node)
  return { id, sessionId }
}
