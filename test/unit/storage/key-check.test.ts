/**
 * @module test/unit/storage/key-check
 * DATA_KEY checked at open (src/storage/key-check.ts), on the lmdb store: a wrong key, a missing key, or a key on
 * plain data is refused with a clear message before anything is read, and the refusal changes nothing; a fresh or
 * registry-only DATA_DIR takes a key. What the key seals is ./value-cipher.test.ts.
 */
import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { DataKeyError } from '../../../src/storage/data-key.js'
import { KEY_MISSING, PLAIN_DATA, WRONG_KEY } from '../../../src/storage/key-check.js'
import { storeHarness } from '../../support/store-harness.js'
import { fillSession as fill } from '../../support/store-secrets.js'

const { tempDir, openStore, closeAll } = storeHarness('key-check-')

const KEY = randomBytes(32).toString('base64')
const OTHER_KEY = randomBytes(32).toString('hex')

const openError = (dir: string, dataKey?: string): unknown => {
  try {
    openStore(dir, dataKey)
    return undefined
  } catch (err) {
    return err
  }
}

describe('the DATA_KEY check at open', () => {
  it('a wrong key is refused at open, before anything is read', async () => {
    const dir = tempDir()
    await fill(openStore(dir, KEY), 's1')
    await closeAll()
    const err = openError(dir, OTHER_KEY)
    expect(err).toBeInstanceOf(DataKeyError)
    expect((err as Error).message).toBe(WRONG_KEY)
    expect(WRONG_KEY).toBe('DATA_KEY does not match the key this DATA_DIR was written with')
  })

  it('an encrypted DATA_DIR opened without a key, or plain data opened with one, is a clear error', async () => {
    const sealedDir = tempDir()
    const sealedStore = openStore(sealedDir, KEY)
    await fill(sealedStore, 's1')
    const sealedContacts = await sealedStore.contacts('s1').all()
    const plainDir = tempDir()
    const plainStore = openStore(plainDir)
    await fill(plainStore, 's1')
    const plainContacts = await plainStore.contacts('s1').all()
    expect([sealedContacts, plainContacts].map(c => c.length)).toEqual([2, 2])
    await closeAll()
    expect((openError(sealedDir) as Error).message).toBe(KEY_MISSING)
    expect((openError(plainDir, KEY) as Error).message).toBe(PLAIN_DATA)
    // and the refusals changed nothing: each still opens the way it was written
    expect(await openStore(plainDir).contacts('s1').all()).toEqual(plainContacts)
    expect(await openStore(sealedDir, KEY).contacts('s1').all()).toEqual(sealedContacts)
  })

  it('a fresh or registry-only DATA_DIR takes a key (the first open writes the marker)', async () => {
    const dir = tempDir()
    await openStore(dir).putSession({ id: 'x', secretHash: 'b'.repeat(64), createdAt: 1, qrDeadline: 5 })
    await closeAll()
    const keyed = openStore(dir, KEY)
    expect(await keyed.getSession('x')).toBeDefined()
    await closeAll()
    expect((openError(dir) as Error).message).toBe(KEY_MISSING)
  })
})
