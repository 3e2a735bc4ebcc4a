/**
 * Stores for storage tests on real lmdb files in temp folders (or on Redis, handed to `keep`): every store a test
 * opens is closed, and every folder removed, after that test.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach } from 'vitest'
import { openLmdbStore } from '../../src/storage/lmdb-store.js'
import type { Store } from '../../src/storage/types.js'

/** Call at a test file's top level; `prefix` names its temp folders. */
export function storeHarness(prefix: string): {
  tempDir(): string
  openStore(dir: string, dataKey?: string): Store
  /** A store opened some other way (on Redis), closed after the test as the others are. */
  keep(store: Store): Store
  /** Closes the stores opened so far (to reopen the folder, or read its raw file). */
  closeAll(): Promise<void>
} {
  const dirs: string[] = []
  const stores: Store[] = []
  const closeAll = async (): Promise<void> => {
    for (const s of stores.splice(0)) await s.close()
  }
  afterEach(async () => {
    await closeAll()
    for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true })
  })
  return {
    tempDir() {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix))
      dirs.push(dir)
      return dir
    },
    openStore(dir, dataKey) {
      const store = openLmdbStore(dir, { dataKey })
      stores.push(store)
      return store
    },
    keep(store) {
      stores.push(store)
      return store
    },
    closeAll,
  }
}
