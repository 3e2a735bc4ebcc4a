/**
 * @module test/support/store-secrets
 * For the tests that look for a session's secrets in DATA_DIR's files (session keys, compaction): a session filled
 * with credentials, Signal keys and contacts, returning the bytes no reader of the files may find once it is gone;
 * and every file of a folder as bytes. For the tests of what DATA_KEY seals, on lmdb (storage/value-cipher.test.ts)
 * and on Redis (cluster/store/sealing.test.ts): a session with a proxy and every kind of row, a conversation
 * included (`fillSealable`), and
 * the secrets a leaked copy of its rows must not show (`secretsOfSealable`).
 */
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { type AuthenticationCreds, initAuthCreds, proto } from '@whiskeysockets/baileys'
import type { SessionRecord, Store } from '../../src/storage/types.js'

export const CONTACT = { id: '15550001234@s.whatsapp.net', name: 'Ophelia Shredwell', phone: '15550001234' }

export const sessionRecord = (id: string, hash = 'a'): SessionRecord => ({
  id,
  secretHash: hash.repeat(64),
  createdAt: 1,
  qrDeadline: null,
})

export /** A session with creds, Signal keys and a contact; returns the secrets a reader of the files must not find. */
async function fillSession(store: Store, id: string): Promise<Buffer[]> {
  const creds = initAuthCreds()
  const signalSession = randomBytes(40)
  await store.putSession(sessionRecord(id))
  await store.auth(id).writeCreds(creds)
  await store.auth(id).keys.set({
    'pre-key': { '7': { public: Buffer.from([1, 2, 3]), private: randomBytes(32) } },
    session: { [`${CONTACT.phone}.0`]: signalSession },
  })
  const own = {
    id: `1555${randomBytes(4).readUInt32BE()}@s.whatsapp.net`,
    name: `Only-${id}-${randomBytes(6).toString('hex')}`,
  }
  await store.contacts(id).upsert([CONTACT, own])
  const keys = [creds.noiseKey.private, creds.signedIdentityKey.private, creds.signedPreKey.keyPair.private]
  return [
    ...keys.map(k => Buffer.from(k)),
    ...keys.map(k => Buffer.from(Buffer.from(k).toString('base64'))),
    Buffer.from(creds.advSecretKey),
    Buffer.from(signalSession.toString('base64')),
    Buffer.from(own.name),
  ]
}

/** Every file under `dir`, recursively, as bytes. */
export function allFiles(dir: string): Buffer[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map(name => path.join(dir, name))
    .filter(file => fs.statSync(file).isFile())
    .map(file => fs.readFileSync(file))
}

/** What `fillSealable` writes that a reader of the stored rows must not find. */
export const SEALABLE = {
  contact: { id: '15550009876@s.whatsapp.net', name: 'Zebediah Quux', phone: '15550009876' },
  proxyPassword: 'ProxyPw-7h3q',
  proxy: 'socks5://zeb:ProxyPw-7h3q@proxy.test:1080',
  secretHash: 'f'.repeat(64),
  /** A number the account has a conversation with (storage/conversations.ts), in no other row. */
  conversationPhone: '15550004567',
}

/** A session with a proxy, creds, a pre-key, a Signal session, an app-state key and a contact; the creds written. */
export async function fillSealable(store: Store, id = 's1'): Promise<AuthenticationCreds> {
  const creds = initAuthCreds()
  const { contact, proxy, secretHash } = SEALABLE
  await store.putSession({ id, secretHash, createdAt: 1, qrDeadline: null, proxy })
  await store.auth(id).writeCreds(creds)
  await store.auth(id).keys.set({
    'pre-key': { '7': { public: Buffer.from([1, 2, 3]), private: randomBytes(32) } },
    session: { [`${contact.phone}.0`]: Buffer.from('signal session record') }, // key ids name contacts
    'app-state-sync-key': { k1: proto.Message.AppStateSyncKeyData.fromObject({ keyData: Buffer.from([9, 9]) }) },
  })
  await store.contacts(id).upsert([contact])
  await store.conversations(id).put([{ phone: SEALABLE.conversationPhone, seenAt: 1 }])
  return creds
}

/** The secrets of a `fillSealable` session, in the spellings a store could use (raw bytes, base64, text). */
export function secretsOfSealable(creds: AuthenticationCreds): Buffer[] {
  const keys = [creds.noiseKey.private, creds.signedIdentityKey.private, creds.signedPreKey.keyPair.private]
  return [
    ...keys.map(k => Buffer.from(k)),
    ...keys.map(k => Buffer.from(Buffer.from(k).toString('base64'))),
    Buffer.from(creds.advSecretKey),
    Buffer.from(SEALABLE.contact.name),
    Buffer.from(SEALABLE.contact.phone),
    Buffer.from(SEALABLE.proxyPassword), // the session's proxy credentials (docs/api.md: A proxy per session)
    Buffer.from(SEALABLE.conversationPhone),
  ]
}
