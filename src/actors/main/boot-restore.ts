/**
 * @module actors/main/boot-restore
 * What one process (lmdb, not a cluster node) finds in its store at start: compacting the file first when it owns
 * it (storage/compaction.ts: the pages deleted and reset sessions left behind), and the stored sessions, each put in
 * the snapshot cache (`snapshotFromStore`) so GET /session answers at once, before their actors publish. The
 * shards that hold them start their thread with the process and must announce their restore before /readyz says
 * ready. A cluster node restores nothing here: its ownership loop adopts the sessions that belong on it.
 */
import type { Logger } from 'pino'
import type { SessionSnapshot } from '../../protocol/snapshot.js'
import { compactStore } from '../../storage/compaction.js'
import type { SessionRecord, Store } from '../../storage/types.js'
import { initialSnapshot, type SnapshotCache } from './snapshot-cache.js'

/** Compacts DATA_DIR's file before any thread maps it. */
export async function compactAtBoot(dataDir: string, log: Logger): Promise<void> {
  const compaction = await compactStore(dataDir)
  if (compaction.compacted) log.info(compaction, 'storage compacted: removed sessions left no bytes behind')
  else if (compaction.reason === 'in use by another process')
    log.warn('storage not compacted: another process has DATA_DIR open')
}

/** A stored session's first snapshot: a paired one shows its device id (from its credentials) at once. */
export async function snapshotFromStore(store: Store, record: SessionRecord): Promise<SessionSnapshot> {
  const creds =
    record.qrDeadline === null
      ? await store
          .auth(record.id)
          .readCreds()
          .catch(() => undefined)
      : undefined
  return initialSnapshot(record, creds?.me?.id ?? '')
}

/** Puts every stored session in the cache; the records (an expired one too: its shard deletes it on restore). */
export async function restoreIntoCache(store: Store, cache: SnapshotCache): Promise<SessionRecord[]> {
  const records = await store.listSessions()
  const now = Date.now()
  for (const record of records) {
    if (record.qrDeadline !== null && record.qrDeadline <= now) continue // the worker deletes it on restore
    cache.add(record.secretHash, await snapshotFromStore(store, record))
  }
  return records
}
