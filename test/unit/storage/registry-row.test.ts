/**
 * The registry row on disk keeps the field name every DATA_DIR so far holds (`sessionIdHash`), while the code
 * calls it `secretHash` (src/storage/registry-row.ts): rows written by earlier versions read back, and new rows
 * are written as earlier versions read them. renames.sh leaves this file alone, as it names the stored field.
 */
import path from 'node:path'
import { open } from 'lmdb'
import { describe, expect, it } from 'vitest'
import { STORE_FILE } from '../../../src/storage/compaction.js'
import type { SessionRecord } from '../../../src/storage/types.js'
import { storeHarness } from '../../support/store-harness.js'

const { tempDir, openStore, closeAll } = storeHarness('registry-row-')
const rawSessions = (dir: string) => {
  const root = open({ path: path.join(dir, STORE_FILE), noSubdir: true, maxDbs: 8 })
  return { root, sessions: root.openDB<Record<string, unknown>, string>({ name: 'sessions', encoding: 'msgpack' }) }
}

describe('session registry rows on disk', () => {
  it('reads a row as earlier versions wrote it, and writes the secret hash under the same name', async () => {
    const dir = tempDir()
    openStore(dir) // creates the file and its sub-databases
    await closeAll()
    const before = rawSessions(dir)
    await before.sessions.put('old', { id: 'old', sessionIdHash: 'c'.repeat(64), createdAt: 1, qrDeadline: null })
    await before.root.close()

    const store = openStore(dir)
    expect(await store.getSession('old')).toEqual({
      id: 'old',
      secretHash: 'c'.repeat(64),
      createdAt: 1,
      qrDeadline: null,
    } satisfies SessionRecord)
    await store.putSession({ id: 'new', secretHash: 'd'.repeat(64), createdAt: 2, qrDeadline: 5 })
    await closeAll()

    const after = rawSessions(dir)
    expect(after.sessions.get('new')).toEqual({ id: 'new', sessionIdHash: 'd'.repeat(64), createdAt: 2, qrDeadline: 5 })
    await after.root.close()
  })
})
