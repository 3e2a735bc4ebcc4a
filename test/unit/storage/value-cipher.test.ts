/**
 * @module test/unit/storage/value-cipher
 * DATA_KEY's sealing of stored values and names (src/storage/value-cipher.ts), through the lmdb store: credentials,
 * Signal keys and contacts round-trip sealed; the raw lmdb file holds none of them in the clear, not even the phone
 * numbers inside row names; a changed or swapped value fails instead of being read. How a wrong or missing key is
 * refused at open is ./key-check.test.ts.
 */
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { initAuthCreds, proto } from '@whiskeysockets/baileys'
import { open } from 'lmdb'
import { SealedValueError } from '../../../src/storage/value-cipher.js'
import type { Store } from '../../../src/storage/types.js'
import { storeHarness } from '../../support/store-harness.js'

const { tempDir, openStore, closeAll } = storeHarness('sealed-store-')

const KEY = randomBytes(32).toString('base64')
const PROXY_PASSWORD = 'ProxyPw-7h3q'
const PROXY = `socks5://zeb:${PROXY_PASSWORD}@proxy.test:1080`
const CONTACT = { id: '15550009876@s.whatsapp.net', name: 'Zebediah Quux', phone: '15550009876' }

/** A session with creds, a pre-key, an app-state key and a contact; returns the creds written. */
async function fill(store: Store, id = 's1') {
  const creds = initAuthCreds()
  await store.putSession({ id, secretHash: 'a'.repeat(64), createdAt: 1, qrDeadline: null, proxy: PROXY })
  await store.auth(id).writeCreds(creds)
  await store.auth(id).keys.set({
    'pre-key': { '7': { public: Buffer.from([1, 2, 3]), private: randomBytes(32) } },
    session: { [`${CONTACT.phone}.0`]: Buffer.from('signal session record') }, // key ids name contacts
    'app-state-sync-key': { k1: proto.Message.AppStateSyncKeyData.fromObject({ keyData: Buffer.from([9, 9]) }) },
  })
  await store.contacts(id).upsert([CONTACT])
  return creds
}

/** The secrets a leaked DATA_DIR must not show, in the spellings the store could use (raw bytes, base64, text). */
function secretsOf(creds: ReturnType<typeof initAuthCreds>): Buffer[] {
  const keys = [creds.noiseKey.private, creds.signedIdentityKey.private, creds.signedPreKey.keyPair.private]
  return [
    ...keys.map(k => Buffer.from(k)),
    ...keys.map(k => Buffer.from(Buffer.from(k).toString('base64'))),
    Buffer.from(creds.advSecretKey),
    Buffer.from(CONTACT.name),
    Buffer.from(CONTACT.phone),
    Buffer.from(PROXY_PASSWORD), // the session's proxy credentials (README: A proxy per session)
  ]
}
const rawFile = (dir: string): Buffer => fs.readFileSync(path.join(dir, 'gateway.mdb'))

describe('sealed values', () => {
  it('round-trips creds, Signal keys and contacts across a reopen with the same key', async () => {
    const dir = tempDir()
    const creds = await fill(openStore(dir, KEY))
    await closeAll()
    const again = openStore(dir, KEY)
    const read = await again.auth('s1').readCreds()
    expect(Buffer.from(read!.noiseKey.private)).toEqual(Buffer.from(creds.noiseKey.private))
    expect(read!.registrationId).toBe(creds.registrationId)
    expect(Object.keys(await again.auth('s1').keys.get('pre-key', ['7', '8']))).toEqual(['7'])
    const sessions = await again.auth('s1').keys.get('session', [`${CONTACT.phone}.0`])
    expect(Buffer.from(sessions[`${CONTACT.phone}.0`]!).toString()).toBe('signal session record')
    const app = await again.auth('s1').keys.get('app-state-sync-key', ['k1'])
    expect(app.k1).toBeInstanceOf(proto.Message.AppStateSyncKeyData)
    expect(await again.contacts('s1').all()).toEqual([CONTACT])
    await again.deleteSession('s1')
    expect(await again.auth('s1').readCreds()).toBeUndefined()
    expect(await again.auth('s1').keys.get('session', [`${CONTACT.phone}.0`])).toEqual({})
    expect(await again.contacts('s1').all()).toEqual([])
  })

  it('the raw lmdb file holds no private key, secret, contact name or number (it does without DATA_KEY)', async () => {
    const sealedDir = tempDir()
    const sealedSecrets = secretsOf(await fill(openStore(sealedDir, KEY)))
    const plainDir = tempDir()
    const plainSecrets = secretsOf(await fill(openStore(plainDir)))
    await closeAll()
    const sealed = rawFile(sealedDir)
    for (const secret of sealedSecrets) expect(sealed.includes(secret), secret.toString('hex')).toBe(false)
    // the control: the same search finds them in a store written without a key
    const plain = rawFile(plainDir)
    expect(plainSecrets.filter(secret => plain.includes(secret)).length).toBeGreaterThan(0)
    expect(plain.includes(Buffer.from(CONTACT.name))).toBe(true)
  })

  it('a changed byte fails authentication instead of being read', async () => {
    const dir = tempDir()
    await fill(openStore(dir, KEY), 'a')
    await closeAll()
    const raw = open({ path: path.join(dir, 'gateway.mdb'), noSubdir: true, maxDbs: 8 })
    const creds = raw.openDB<Buffer, string>({ name: 'creds', encoding: 'binary' })
    const tampered = Buffer.from(creds.get('a')!)
    tampered[tampered.length - 20]! ^= 1
    await creds.put('a', tampered)
    await raw.close()
    const reopened = openStore(dir, KEY)
    await expect(reopened.auth('a').readCreds()).rejects.toThrow(
      'a stored creds value failed authentication (wrong DATA_KEY, or the data was altered)',
    )
  })

  it('a value copied from one row to another (same key, valid ciphertext) is refused', async () => {
    const dir = tempDir()
    const store = openStore(dir, KEY)
    await fill(store, 'a')
    await fill(store, 'b')
    await closeAll()
    const raw = open({ path: path.join(dir, 'gateway.mdb'), noSubdir: true, maxDbs: 8 })
    const creds = raw.openDB<Buffer, string>({ name: 'creds', encoding: 'binary' })
    await creds.put('b', Buffer.from(creds.get('a')!)) // an intact value of session a, on session b's row
    await raw.close()
    const reopened = openStore(dir, KEY)
    expect(await reopened.auth('a').readCreds()).toBeDefined()
    await expect(reopened.auth('b').readCreds()).rejects.toBeInstanceOf(SealedValueError)
  })
})
