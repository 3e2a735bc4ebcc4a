/**
 * The registry row on disk (src/storage/registry-row.ts) keeps the field name every DATA_DIR so far holds
 * (`sessionIdHash`), while the code calls it `secretHash`: rows written by earlier versions read back, and new rows
 * are written as earlier versions read them. With DATA_KEY the rows are sealed and bound to their id: no secret hash
 * in the clear, and a row moved to another session or changed is refused. renames.sh leaves this file alone, as it
 * names the stored field.
 */
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { open } from 'lmdb'
import { describe, expect, it } from 'vitest'
import { STORE_FILE } from '../../../src/storage/compaction.js'
import type { SessionRecord } from '../../../src/storage/types.js'
import { SealedValueError } from '../../../src/storage/value-cipher.js'
import { storeHarness } from '../../support/store-harness.js'
import { sessionRecord as record } from '../../support/store-secrets.js'

const { tempDir, openStore, closeAll } = storeHarness('registry-row-')
const KEY = randomBytes(32).toString('base64')
const rawLmdb = (dir: string) => open({ path: path.join(dir, STORE_FILE), noSubdir: true, maxDbs: 8 })
const rawSessions = (dir: string) => {
  const root = rawLmdb(dir)
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

describe('with DATA_KEY: the session registry', () => {
  it('a registry row swapped onto another session, or changed, is refused at load', async () => {
    const dir = tempDir()
    const store = openStore(dir, KEY)
    await store.putSession(record('a', 'a'))
    await store.putSession(record('b', 'b'))
    await closeAll()
    const raw = rawLmdb(dir)
    const sessions = raw.openDB<Buffer, string>({ name: 'sessions', encoding: 'binary' })
    // a's row holds a's secret hash: on b's row it would let a's secret open b
    await sessions.put('b', Buffer.from(sessions.get('a')!))
    await raw.close()
    const reopened = openStore(dir, KEY)
    expect(await reopened.getSession('a')).toEqual(record('a', 'a'))
    await expect(reopened.getSession('b')).rejects.toBeInstanceOf(SealedValueError)
    await expect(reopened.listSessions()).rejects.toBeInstanceOf(SealedValueError)
  })

  it('holds no secret hash in the clear', async () => {
    const dir = tempDir()
    await openStore(dir, KEY).putSession(record('a', 'e'))
    await closeAll()
    expect(fs.readFileSync(path.join(dir, STORE_FILE)).includes(Buffer.from('e'.repeat(64)))).toBe(false)
  })
})
