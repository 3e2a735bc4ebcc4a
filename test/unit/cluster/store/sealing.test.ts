/**
 * @module test/unit/cluster/store/sealing
 * DATA_KEY on Redis: every raw byte Redis holds (key names, hash fields, values) shows no credential, no Signal
 * key, no contact name or number and no sent text; a wrong key, a missing key, or a key on data written without one
 * is refused with a clear message; a sealed value moved to another row does not open; deleting a session leaves none
 * of its data behind (its own key goes too). Without DATA_KEY the store reads and writes in the clear, like lmdb.
 */
import { randomBytes } from 'node:crypto'
import { expect, it } from 'vitest'
import { type initAuthCreds, proto } from '@whiskeysockets/baileys'
import { openRedisStore } from '../../../../src/cluster/store/redis-store.js'
import { hashEntries } from '../../../../src/cluster/store/hash-entries.js'
import { sessionKeys } from '../../../../src/cluster/store/keys.js'
import { KEY_MISSING, WRONG_KEY } from '../../../../src/storage/key-check.js'
import { DataKeyError } from '../../../../src/storage/data-key.js'
import type { Store } from '../../../../src/storage/types.js'
import { redisHarness } from '../../../support/redis-harness.js'
import { describeWithRedis } from '../../../support/redis-server.js'
import { storeHarness } from '../../../support/store-harness.js'
import { fillSealable, SEALABLE, secretsOfSealable } from '../../../support/store-secrets.js'

const redis = redisHarness()
const { keep } = storeHarness('sealing-')
const open = (dataKey?: string) => keep(openRedisStore(redis.url, { dataKey }))

const KEY = randomBytes(32).toString('base64')
const CONTACT = SEALABLE.contact
const TEXT = 'meet me at the quayside at nine'

/** fillSealable's session, and a sent message. */
async function fill(store: Store, id = 's1') {
  const creds = await fillSealable(store, id)
  await store.sentMessages(id, { maxAgeMs: 60_000, maxMessages: 10 }).put('3EB0SECRETMSGID', {
    message: proto.Message.encode({ conversation: TEXT }).finish(),
    chats: [CONTACT.id],
    sentAt: Date.now(),
  })
  return creds
}

/** Everything Redis holds, as one buffer: key names, hash fields and values, string values. */
async function dump(): Promise<Buffer> {
  const parts: Buffer[] = []
  const keys = (await redis.conn.command(['KEYS', '*'])) as Buffer[]
  for (const key of keys) {
    parts.push(key)
    const type = String(await redis.conn.command(['TYPE', key.toString()]))
    if (type === 'string') parts.push((await redis.conn.command(['GET', key.toString()])) as Buffer)
    else if (type === 'hash')
      for (const [f, v] of hashEntries(await redis.conn.command(['HGETALL', key.toString()])))
        parts.push(Buffer.from(f), v)
    else throw new Error(`unexpected ${type} at ${key.toString()}`)
  }
  return Buffer.concat(parts)
}

/** fillSealable's secrets, the sent message's, and the registry's hash of the session's secret. */
const secretsOf = (creds: ReturnType<typeof initAuthCreds>): Buffer[] => [
  ...secretsOfSealable(creds),
  Buffer.from(TEXT),
  Buffer.from('3EB0SECRETMSGID'),
  Buffer.from('signal session record'),
  Buffer.from(SEALABLE.secretHash),
]

describeWithRedis('Redis store with DATA_KEY', () => {
  it('keeps nothing in the clear: no secret, number, name, text or key id anywhere in Redis', async () => {
    const store = open(KEY)
    const creds = await fill(store)
    const all = await dump()
    expect(all.length).toBeGreaterThan(500)
    for (const secret of secretsOf(creds)) expect(all.includes(secret), secret.toString()).toBe(false)
    // and it all reads back
    expect((await store.getSession('s1'))?.proxy).toBe(SEALABLE.proxy)
    expect((await store.auth('s1').readCreds())!.registrationId).toBe(creds.registrationId)
    expect(await store.contacts('s1').all()).toEqual([CONTACT])
    expect(Object.keys(await store.auth('s1').keys.get('session', [`${CONTACT.phone}.0`]))).toHaveLength(1)
  })

  it('without DATA_KEY keeps values readable, as lmdb does without it', async () => {
    const store = open()
    await fill(store)
    expect((await dump()).includes(Buffer.from(CONTACT.name))).toBe(true)
    expect(await store.contacts('s1').all()).toEqual([CONTACT])
  })

  it('refuses a wrong key, a missing key, and a key on data written without one', async () => {
    await fill(open(KEY))
    const refusal = async (store: Store) =>
      store.listSessions().then(
        () => undefined,
        (err: unknown) => err,
      )
    const wrong = await refusal(open(randomBytes(32).toString('hex')))
    expect(wrong).toBeInstanceOf(DataKeyError)
    expect((wrong as Error).message).toBe(WRONG_KEY.replace('DATA_DIR', 'Redis'))
    const missing = await refusal(open())
    expect((missing as Error).message).toBe(KEY_MISSING.replace('DATA_DIR', 'Redis'))
    await redis.conn.command(['FLUSHALL'])
    await fill(open())
    const onPlain = await refusal(open(KEY))
    expect(onPlain).toBeInstanceOf(DataKeyError)
    expect((onPlain as Error).message).toMatch(/written without DATA_KEY/)
  })

  it('does not read a sealed value moved onto another session', async () => {
    const store = open(KEY)
    await fill(store, 'a')
    await fill(store, 'b')
    const creds = (await redis.conn.command(['GET', sessionKeys('a').creds])) as Buffer
    await redis.conn.command(['SET', sessionKeys('b').creds, creds])
    await expect(store.auth('b').readCreds()).rejects.toThrow(/failed authentication/)
  })

  it('deletes every key of a deleted session, its own key included, and keeps the others', async () => {
    const store = open(KEY)
    await fill(store, 'gone')
    await fill(store, 'kept')
    await store.deleteSession('gone')
    const names = ((await redis.conn.command(['KEYS', '*'])) as Buffer[]).map(String)
    expect(names.filter(n => n.includes('{gone}'))).toEqual([])
    expect(names).toContain(sessionKeys('kept').skey)
    expect(await store.contacts('kept').all()).toEqual([CONTACT])
    // a reset removes the key too once nothing is left sealed with it
    await store.auth('kept').clear()
    await store.contacts('kept').clear()
    await store.conversations('kept').clear()
    expect(
      ((await redis.conn.command(['KEYS', '*'])) as Buffer[]).map(String).filter(n => n.includes('{kept}')),
    ).toEqual([])
  })
})
