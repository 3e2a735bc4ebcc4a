/**
 * @module actors/main/stored-snapshots
 * Stored sessions as GET /session shows them before their actors publish: a stored row's first snapshot
 * (`snapshotFromStore`), and what one process (lmdb, not a cluster node) finds in its store at start, each session
 * put in the snapshot cache (`restoreIntoCache`) so GET /session answers at once. The shards that hold them start
 * their thread with the process and must announce their restore before /readyz says ready. A cluster node restores
 * nothing here: its ownership loop adopts the sessions that belong on it.
 */
import type { SessionSnapshot } from '../../protocol/snapshot.js'
import type { SessionRecord, Store } from '../../storage/types.js'
import { initialSnapshot, type SnapshotCache } from './snapshot-cache.js'

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
