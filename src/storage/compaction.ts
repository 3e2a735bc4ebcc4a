/**
 * @module storage/compaction
 * lmdb never wipes a page it frees: after a session is deleted or reset, its rows' bytes (credentials and Signal
 * keys in the clear, without DATA_KEY) stay in `gateway.mdb` until lmdb happens to reuse the page. Overwriting a
 * value with zeros before removing it does not help (lmdb is copy-on-write: the zeros go to a new page, the old
 * one is freed as it was); only a compacting copy, which writes live pages alone, leaves nothing behind.
 *
 * The file cannot be swapped while worker threads have it mapped, so the swap happens at start, before they open
 * it: removing a session's rows sets a flag in `meta`, and the next start (`compactStore`, main thread) copies
 * the live data to a new file and renames it over the old one. Its cost is one read and one write of the live
 * data (roughly the file size, measured in docs/operating.md), paid only on starts after a delete or reset.
 * With DATA_KEY the session's key is destroyed at delete time already (`session-keys.ts`); the compaction then
 * also drops rows sealed under DATA_KEY itself by versions before session keys.
 */
import fs from 'node:fs'
import path from 'node:path'
import { open, type Database } from 'lmdb'
import { privateFile } from './file-modes.js'

export const STORE_FILE = 'gateway.mdb'
const META_DB = 'meta'
const PENDING_KEY = 'compaction-pending'

/** Inside a write transaction: the next start compacts the file. */
export function markCompactionPending(meta: Database<Buffer, string>): void {
  meta.putSync(PENDING_KEY, Buffer.of(1))
}

export type CompactionResult =
  | { compacted: true; bytesBefore: number; bytesAfter: number; ms: number }
  | { compacted: false; reason: 'no file' | 'not needed' | 'in use by another process' }

/** The pids holding a read slot in the environment (lmdb's reader table: `pid thread txnid` lines). */
function readerPids(list: string): number[] {
  return list
    .split('\n')
    .slice(1)
    .map(line => Number(line.trim().split(/\s+/)[0]))
    .filter(pid => pid > 0)
}

/**
 * Compacts `DATA_DIR/gateway.mdb` when a session's rows were removed since the last compaction. Call before any
 * thread of this process opens the store; a file another process has open is left alone (and stays flagged).
 */
export async function compactStore(dataDir: string): Promise<CompactionResult> {
  const file = path.resolve(dataDir, STORE_FILE)
  if (!fs.existsSync(file)) return { compacted: false, reason: 'no file' }
  const started = performance.now()
  const bytesBefore = fs.statSync(file).size
  const root = open({ path: file, noSubdir: true, maxDbs: 8 })
  const meta = root.openDB<Buffer, string>({ name: META_DB, encoding: 'binary' })
  const draft = `${file}.compact`
  try {
    if (meta.get(PENDING_KEY) === undefined) return { compacted: false, reason: 'not needed' }
    // read slots of processes that died (kill -9) must not count as users (lmdb-js clears them on open too)
    root.readerCheck()
    if (readerPids(root.readerList()).some(pid => pid !== process.pid)) {
      return { compacted: false, reason: 'in use by another process' }
    }
    // Cleared first, so the copy does not carry the flag; set again if the copy fails.
    await root.transaction(() => meta.removeSync(PENDING_KEY))
    fs.rmSync(draft, { force: true })
    try {
      await root.backup(draft, true)
    } catch (err) {
      await root.transaction(() => markCompactionPending(meta))
      throw err
    }
  } finally {
    await root.close()
  }
  privateFile(draft)
  const fd = fs.openSync(draft, 'r+')
  try {
    fs.fsyncSync(fd)
  } finally {
    fs.closeSync(fd)
  }
  fs.renameSync(draft, file)
  return {
    compacted: true,
    bytesBefore,
    bytesAfter: fs.statSync(file).size,
    ms: Math.round(performance.now() - started),
  }
}
