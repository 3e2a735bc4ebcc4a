/**
 * @module test/unit/storage/session-keys
 * Crypto-shredding (src/storage/session-keys.ts): a deleted or reset session's credentials and Signal keys cannot
 * be read back from DATA_DIR. lmdb leaves freed pages as they were, so with DATA_KEY every session's rows are sealed
 * with its own key, kept outside lmdb and destroyed on delete and reset (without DATA_KEY the next start compacts
 * the file: ./compaction.test.ts). Data written before session keys (sealed directly with DATA_KEY, registry in
 * plain msgpack) still loads. That the registry rows are sealed and bound to their id is ./registry-row.test.ts.
 */
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { initAuthCreds } from '@whiskeysockets/baileys'
import { open } from 'lmdb'
import { encodeValue } from '../../../src/storage/auth-codec.js'
import { compactStore } from '../../../src/storage/compaction.js'
import { contactKey, signalKey } from '../../../src/storage/keys.js'
import { parseDataKey } from '../../../src/storage/data-key.js'
import { createSessionCipher, createValueCipher, SealedValueError } from '../../../src/storage/value-cipher.js'
import { toStoredRecord, type StoredSessionRecord } from '../../../src/storage/registry-row.js'
import { storeHarness } from '../../support/store-harness.js'
import { allFiles, CONTACT, fillSession as fill, sessionRecord as record } from '../../support/store-secrets.js'

const { tempDir, openStore, closeAll } = storeHarness('shred-store-')

const KEY = randomBytes(32).toString('base64')
const dataKeyCipher = () => createValueCipher(parseDataKey(KEY)!)

const rawLmdb = (dir: string) => open({ path: path.join(dir, 'gateway.mdb'), noSubdir: true, maxDbs: 8 })

const keyFile = (dir: string, id: string) => path.join(dir, 'session-keys', Buffer.from(id).toString('hex'))

/** The stored (sealed) creds value of `id`, read behind the store's back. */
async function sealedCreds(dir: string, id: string): Promise<Buffer> {
  const raw = rawLmdb(dir)
  const value = Buffer.from(raw.openDB<Buffer, string>({ name: 'creds', encoding: 'binary' }).get(id)!)
  await raw.close()
  return value
}

/** What a thief holding DATA_KEY and a key file can do: unwrap the session key and open a sealed creds value. */
function openWithKeyFile(keyFileBytes: Buffer, id: string, sealed: Buffer): string {
  const plain = dataKeyCipher().open('session-keys', id, keyFileBytes)
  return createSessionCipher(plain.subarray(1)).open('creds', id, sealed).toString()
}

describe('with DATA_KEY: crypto-shredding', () => {
  it('delete destroys the session key: the sealed rows left in the file can no longer be opened', async () => {
    const dir = tempDir()
    const store = openStore(dir, KEY)
    const secrets = await fill(store, 'gone')
    await fill(store, 'kept')
    const sealed = await sealedCreds(dir, 'gone')
    const wrapped = fs.readFileSync(keyFile(dir, 'gone'))
    // the key file is what opens the rows: DATA_KEY alone does not
    expect(openWithKeyFile(wrapped, 'gone', sealed)).toContain('noiseKey')
    expect(() => dataKeyCipher().open('creds', 'gone', sealed)).toThrow(SealedValueError)

    await store.deleteSession('gone')
    await closeAll()
    expect(fs.existsSync(keyFile(dir, 'gone'))).toBe(false)
    for (const bytes of allFiles(dir)) {
      expect(bytes.includes(wrapped)).toBe(false) // no copy of the wrapped key anywhere in DATA_DIR
      expect(bytes.includes(wrapped.subarray(13, 13 + 33))).toBe(false) // not even its ciphertext
      for (const secret of secrets) expect(bytes.includes(secret)).toBe(false)
    }
    // the other session is untouched
    const again = openStore(dir, KEY)
    expect(await again.getSession('gone')).toBeUndefined()
    expect(await again.auth('kept').readCreds()).toBeDefined()
    expect(await again.contacts('kept').all()).toContainEqual(CONTACT)
  })

  it('reset replaces the session key: old rows are unreadable, new ones work across a reopen', async () => {
    const dir = tempDir()
    const store = openStore(dir, KEY)
    await fill(store, 's')
    const oldSealed = await sealedCreds(dir, 's')
    const oldWrapped = fs.readFileSync(keyFile(dir, 's'))
    // what SessionRecordKeeper.restartPairing does
    await store.auth('s').clear()
    await store.contacts('s').clear()
    expect(fs.existsSync(keyFile(dir, 's'))).toBe(false)
    const fresh = initAuthCreds()
    await store.auth('s').writeCreds(fresh)
    const newWrapped = fs.readFileSync(keyFile(dir, 's'))
    expect(newWrapped.equals(oldWrapped)).toBe(false)
    expect(() => openWithKeyFile(newWrapped, 's', oldSealed)).toThrow(SealedValueError)
    await closeAll()
    for (const bytes of allFiles(dir)) expect(bytes.includes(oldWrapped)).toBe(false)
    const read = await openStore(dir, KEY).auth('s').readCreds()
    expect(Buffer.from(read!.noiseKey.private)).toEqual(Buffer.from(fresh.noiseKey.private))
  })

  it('a key file copied onto another session does not open', async () => {
    const dir = tempDir()
    const store = openStore(dir, KEY)
    await fill(store, 'a')
    await fill(store, 'b')
    await closeAll()
    fs.copyFileSync(keyFile(dir, 'a'), keyFile(dir, 'b'))
    await expect(openStore(dir, KEY).auth('b').readCreds()).rejects.toBeInstanceOf(SealedValueError)
  })
})

describe('with DATA_KEY: data written before session keys', () => {
  /** A DATA_DIR as the previous version wrote it: rows sealed with DATA_KEY, registry plain, marker v1. */
  async function legacyDir(creds: ReturnType<typeof initAuthCreds>): Promise<string> {
    const dir = tempDir()
    const cipher = dataKeyCipher()
    const raw = rawLmdb(dir)
    const sessions = raw.openDB<StoredSessionRecord, string>({ name: 'sessions', encoding: 'msgpack' })
    const db = (name: string) => raw.openDB<Buffer, string>({ name, encoding: 'binary' })
    const put = (name: string, key: string, text: string) => {
      const stored = cipher.hideName(key)
      return db(name).put(stored, cipher.seal(name, stored, Buffer.from(text)))
    }
    await sessions.put('old', toStoredRecord(record('old', 'c')))
    await put('creds', 'old', encodeValue(creds))
    await put(
      'keys',
      signalKey('old', 'pre-key', '3'),
      encodeValue({ public: Buffer.from([3]), private: Buffer.from([4]) }),
    )
    await put('contacts', contactKey('old', CONTACT.id), JSON.stringify(CONTACT))
    await db('meta').put(
      'data-key-check',
      cipher.seal('meta', 'data-key-check', Buffer.from('messaging-gateway DATA_KEY check v1')),
    )
    await raw.close()
    return dir
  }

  it('loads, keeps working, seals the registry, and is shredded on delete', async () => {
    const creds = initAuthCreds()
    const dir = await legacyDir(creds)
    const store = openStore(dir, KEY)
    expect(await store.listSessions()).toEqual([record('old', 'c')])
    expect(Buffer.from((await store.auth('old').readCreds())!.noiseKey.private)).toEqual(
      Buffer.from(creds.noiseKey.private),
    )
    expect(Object.keys(await store.auth('old').keys.get('pre-key', ['3']))).toEqual(['3'])
    expect(await store.contacts('old').all()).toEqual([CONTACT])
    // a new write gets a session key; old and new rows are read side by side, also after a reopen
    await store.auth('old').keys.set({ 'pre-key': { '4': { public: Buffer.from([5]), private: Buffer.from([6]) } } })
    expect(fs.existsSync(keyFile(dir, 'old'))).toBe(true)
    await closeAll()
    const again = openStore(dir, KEY)
    expect(Object.keys(await again.auth('old').keys.get('pre-key', ['3', '4'])).sort()).toEqual(['3', '4'])
    expect(await again.getSession('old')).toEqual(record('old', 'c'))
    // the registry row is sealed now: a plain row written behind the store's back is refused
    await closeAll()
    const raw = rawLmdb(dir)
    await raw
      .openDB<StoredSessionRecord, string>({ name: 'sessions', encoding: 'msgpack' })
      .put('old', toStoredRecord(record('old', 'd')))
    await raw.close()
    await expect(openStore(dir, KEY).getSession('old')).rejects.toBeInstanceOf(SealedValueError)
  })

  it('a deleted pre-session-key session leaves nothing readable once the next start compacted the file', async () => {
    const creds = initAuthCreds()
    const dir = await legacyDir(creds)
    const legacySealed = await sealedCreds(dir, 'old')
    await openStore(dir, KEY).deleteSession('old')
    await closeAll()
    expect(await compactStore(dir)).toMatchObject({ compacted: true })
    for (const bytes of allFiles(dir)) expect(bytes.includes(legacySealed)).toBe(false)
    expect(await openStore(dir, KEY).listSessions()).toEqual([])
  })
})
