/**
 * @module actors/main/embedded-mode
 * One process on its own store (lmdb under DATA_DIR), the default mode (session-mode.ts): at start every stored
 * session goes into the snapshot cache so GET /session answers at once, and the shards that hold them restore them
 * by themselves (stored-snapshots.ts); a new session's row names its shard, so a replacement thread restores the
 * sessions of a thread that died; every creation limit counts on this process's cache (creation.ts).
 */
import { EMBEDDED_POLICY } from '../../protocol/session-policy.js'
import { shardOfRecord } from '../../protocol/shard.js'
import { restoreIntoCache } from './stored-snapshots.js'
import { embeddedCreation } from './session-creation.js'
import { newSessionIds } from './ids.js'
import type { SessionMode } from './session-mode.js'
import { initialSnapshot } from './snapshot-cache.js'

export const embeddedMode = (): SessionMode => ({
  policy: EMBEDDED_POLICY,
  closedError: 'SHUTTING_DOWN',
  open: parts => ({
    async boot() {
      // Stored sessions run where their rows say (the shard's own restore reads the same rows). Their shards start
      // now and hold /readyz until restored (a record whose QR deadline passed too: its shard deletes it); a shard
      // started later by its first new session has nothing to restore.
      const records = await restoreIntoCache(parts.store, parts.cache)
      for (const record of records) parts.place(record.id, shardOfRecord(record, parts.settings.SHARDS))
      for (const shard of new Set(records.map(record => parts.shardOf(record.id)))) parts.restoreShard(shard)
    },
    creation: embeddedCreation({
      settings: parts.settings,
      store: parts.store,
      cache: parts.cache,
      drawIds: newSessionIds,
      log: parts.log,
      async start(record) {
        parts.cache.add(record.secretHash, initialSnapshot(record))
        // Not awaited: POST /session returns before the QR exists; the QR arrives through the snapshot cache.
        parts
          .startActor(record.id)
          .catch(err => parts.log.error({ err, session: record.id }, 'could not start the session actor'))
      },
    }),
    shardOfNew: () => parts.chooseShard(),
    // the replacement thread restores the shard from the rows: not ready until it has
    threadLost: shard => parts.restoreShard(shard),
    isMoving: () => false,
  }),
})
