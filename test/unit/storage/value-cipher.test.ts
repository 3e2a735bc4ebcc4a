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
import { proto } from '@whiskeysockets/baileys'
import { open } from 'lmdb'
import { SealedValueError } from '../../../src/storage/value-cipher.js'
import { storeHarness } from '../../support/store-harness.js'
import { fillSealable as fill, SEALABLE, secretsOfSealable as secretsOf } from '../../support/store-secrets.js'

const { tempDir, openStore, closeAll } = storeHarness('sealed-store-')

const KEY = randomBytes(32).toString('base64')
const CONTACT = SEALABLE.contact
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
