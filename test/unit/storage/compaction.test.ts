/**
 * Compaction at start (src/storage/compaction.ts): without DATA_KEY, the bytes of a deleted or reset session stay in
 * lmdb's freed pages until the next start compacts the file; a store another process holds open is left alone.
 */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { compactStore } from '../../../src/storage/compaction.js'
import { storeHarness } from '../../support/store-harness.js'
import { allFiles, CONTACT, fillSession as fill, sessionRecord as record } from '../../support/store-secrets.js'

const { tempDir, openStore, closeAll } = storeHarness('compaction-')

describe('without DATA_KEY: compaction at start', () => {
  it('a deleted session is in the file until the next start compacts it, then nowhere', async () => {
    const dir = tempDir()
    const store = openStore(dir)
    const secrets = await fill(store, 'gone')
    await fill(store, 'kept')
    expect(await compactStore(dir)).toEqual({ compacted: false, reason: 'not needed' }) // nothing removed yet
    await store.deleteSession('gone')
    await closeAll()
    // lmdb left the freed pages as they were: this is what the compaction is for
    const before = fs.readFileSync(path.join(dir, 'gateway.mdb'))
    expect(secrets.filter(secret => before.includes(secret)).length).toBeGreaterThan(0)
    const result = await compactStore(dir)
    expect(result).toMatchObject({ compacted: true })
    for (const bytes of allFiles(dir)) for (const secret of secrets) expect(bytes.includes(secret)).toBe(false)
    expect(fs.statSync(path.join(dir, 'gateway.mdb')).mode & 0o777).toBe(0o600)
    const again = openStore(dir)
    expect(await again.getSession('gone')).toBeUndefined()
    expect(await again.auth('kept').readCreds()).toBeDefined()
    expect(await again.contacts('kept').all()).toContainEqual(CONTACT)
    await closeAll()
    expect(await compactStore(dir)).toEqual({ compacted: false, reason: 'not needed' })
  })

  it('a reset session is compacted away as well', async () => {
    const dir = tempDir()
    const store = openStore(dir)
    const secrets = await fill(store, 's')
    await store.auth('s').clear()
    await store.contacts('s').clear()
    await closeAll()
    expect(await compactStore(dir)).toMatchObject({ compacted: true })
    for (const bytes of allFiles(dir)) for (const secret of secrets) expect(bytes.includes(secret)).toBe(false)
    expect(await openStore(dir).getSession('s')).toEqual(record('s'))
  })
})

/** Another process holding the store open with a read transaction, until killed. */
async function otherReader(dir: string) {
  const code = `import { open } from 'lmdb'
    const root = open({ path: ${JSON.stringify(path.join(dir, 'gateway.mdb'))}, noSubdir: true, maxDbs: 8 })
    root.openDB({ name: 'meta', encoding: 'binary' }).get('x'); console.log('ready'); setInterval(() => {}, 1000)`
  const child = spawn(process.execPath, ['--input-type=module', '-e', code], { stdio: ['ignore', 'pipe', 'inherit'] })
  await once(child.stdout, 'data')
  return child
}

describe('compaction and other processes', () => {
  it('leaves a store another process has open alone, and compacts once that process died (even by kill -9)', async () => {
    const dir = tempDir()
    const store = openStore(dir)
    const secrets = await fill(store, 'gone')
    await store.deleteSession('gone')
    await closeAll()
    const child = await otherReader(dir)
    expect(await compactStore(dir)).toEqual({ compacted: false, reason: 'in use by another process' })
    child.kill('SIGKILL')
    await once(child, 'exit')
    expect(await compactStore(dir)).toMatchObject({ compacted: true }) // still flagged, and its read slot is stale
    for (const bytes of allFiles(dir)) for (const secret of secrets) expect(bytes.includes(secret)).toBe(false)
  })
})
