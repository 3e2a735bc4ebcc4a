/**
 * @module test/unit/cluster/store/migrate
 * `npm run migrate:redis`: every session of a DATA_DIR (registry row, credentials, Signal keys, contacts, sent
 * messages) reads back the same from Redis, with DATA_KEY (rows moved sealed, never in the clear in Redis) and
 * without; a re-run skips what is already there; a wrong DATA_KEY stops it with one line and exit 1, before
 * anything is written.
 */
import { randomBytes } from 'node:crypto'
import path from 'node:path'
import { expect, it } from 'vitest'
import { initAuthCreds, proto } from '@whiskeysockets/baileys'
import { open } from 'lmdb'
import { openLmdbStore } from '../../../../src/storage/lmdb-store.js'
import { openRedisStore } from '../../../../src/cluster/store/redis-store.js'
import { hashEntries } from '../../../../src/cluster/store/hash-entries.js'
import { sessionKeys } from '../../../../src/cluster/store/keys.js'
import { migrateLmdbToRedis } from '../../../../src/cluster/store/migrate.js'
import { runToExit } from '../../../support/fresh-process.js'
import { redisHarness } from '../../../support/redis-harness.js'
import { describeWithRedis } from '../../../support/redis-server.js'
import { storeHarness } from '../../../support/store-harness.js'

const redis = redisHarness()
const { tempDir, keep } = storeHarness('migrate-')

const CONTACT = { id: '15550004444@s.whatsapp.net', name: 'Perpetua Migrant', phone: '15550004444' }
const LIMITS = { maxAgeMs: 3_600_000, maxMessages: 10 }

/** A DATA_DIR with two sessions (one paired with everything, one awaiting its QR); returns what to compare. */
async function dataDirWithSessions(dataKey?: string) {
  const dir = tempDir()
  const store = openLmdbStore(dir, { dataKey })
  const creds = initAuthCreds()
  const signal = randomBytes(48)
  await store.putSession({
    id: 'paired',
    secretHash: 'b'.repeat(64),
    createdAt: 10,
    qrDeadline: null,
    unpairedSince: 5,
  })
  await store.putSession({ id: 'waiting', secretHash: 'c'.repeat(64), createdAt: 20, qrDeadline: 99_999 })
  await store.auth('paired').writeCreds(creds)
  await store.auth('paired').keys.set({
    session: { [`${CONTACT.phone}.0`]: signal },
    'pre-key': Object.fromEntries(
      Array.from({ length: 30 }, (_, i) => [String(i), { public: randomBytes(32), private: randomBytes(32) }]),
    ),
    'app-state-sync-key': { k1: proto.Message.AppStateSyncKeyData.fromObject({ keyData: Buffer.from([7, 7]) }) },
  })
  await store.contacts('paired').upsert([CONTACT])
  await store
    .sentMessages('paired', LIMITS)
    .put('3EB0MIGRATED', { message: Buffer.from('sent bytes'), chats: [CONTACT.id], sentAt: Date.now() })
  await store.close()
  return { dir, creds, signal }
}

async function expectSameInRedis(dataKey: string | undefined, creds: ReturnType<typeof initAuthCreds>, signal: Buffer) {
  const store = keep(openRedisStore(redis.url, { dataKey }))
  expect((await store.listSessions()).sort((a, b) => a.id.localeCompare(b.id))).toEqual([
    { id: 'paired', secretHash: 'b'.repeat(64), createdAt: 10, qrDeadline: null, unpairedSince: 5 },
    { id: 'waiting', secretHash: 'c'.repeat(64), createdAt: 20, qrDeadline: 99_999 },
  ])
  const read = await store.auth('paired').readCreds()
  expect(Buffer.from(read!.noiseKey.private)).toEqual(Buffer.from(creds.noiseKey.private))
  expect(read!.registrationId).toBe(creds.registrationId)
  const keys = store.auth('paired').keys
  expect(Buffer.from((await keys.get('session', [`${CONTACT.phone}.0`]))[`${CONTACT.phone}.0`]!)).toEqual(signal)
  expect(
    Object.keys(
      await keys.get(
        'pre-key',
        Array.from({ length: 40 }, (_, i) => String(i)),
      ),
    ),
  ).toHaveLength(30)
  const app = await keys.get('app-state-sync-key', ['k1'])
  expect(app.k1).toBeInstanceOf(proto.Message.AppStateSyncKeyData)
  expect(await store.contacts('paired').all()).toEqual([CONTACT])
  const sent = await store.sentMessages('paired', LIMITS).get('3EB0MIGRATED')
  expect(Buffer.from(sent!.message).toString()).toBe('sent bytes')
  expect(await store.auth('waiting').readCreds()).toBeUndefined()
  // the moved session keeps working: a write after the move reads back
  await keys.set({ session: { fresh: Buffer.from([1]) } })
  expect(Object.keys(await keys.get('session', ['fresh']))).toEqual(['fresh'])
}

async function allRedisBytes(): Promise<Buffer> {
  const parts: Buffer[] = []
  for (const key of (await redis.conn.command(['KEYS', '*'])) as Buffer[]) {
    parts.push(key)
    const type = String(await redis.conn.command(['TYPE', key.toString()]))
    if (type === 'string') parts.push((await redis.conn.command(['GET', key.toString()])) as Buffer)
    else if (type === 'zset')
      parts.push(...((await redis.conn.command(['ZRANGE', key.toString(), '0', '-1'])) as Buffer[]))
    else
      for (const [field, value] of hashEntries(await redis.conn.command(['HGETALL', key.toString()])))
        parts.push(Buffer.from(field), value)
  }
  return Buffer.concat(parts)
}

/** The credentials row of `id` as lmdb stores it (sealed bytes with DATA_KEY). */
async function lmdbCredsBytes(dir: string, id: string): Promise<Buffer> {
  const env = open({ path: path.join(dir, 'gateway.mdb'), noSubdir: true, maxDbs: 8, readOnly: true })
  try {
    return Buffer.from(env.openDB<Buffer, string>({ name: 'creds', encoding: 'binary' }).get(id)!)
  } finally {
    await env.close()
  }
}

const runCli = (args: string[], env: Record<string, string>) =>
  runToExit('npm', ['run', '--silent', 'migrate:redis', '--', ...args], {
    env: { DATA_KEY: '', REDIS_URL: '', ...env },
  })

describeWithRedis('migration from the embedded store to Redis', () => {
  it('moves every session sealed with DATA_KEY through the command, byte for byte, nothing in the clear', async () => {
    const key = randomBytes(32).toString('base64')
    const { dir, creds, signal } = await dataDirWithSessions(key)
    const run = await runCli(['--data-dir', dir, '--redis-url', redis.url], { DATA_KEY: key })
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/^migrated 2 sessions \(\d+ rows\), skipped 0 already in Redis$/m)
    expect((await redis.conn.command(['GET', sessionKeys('paired').creds])) as Buffer).toEqual(
      await lmdbCredsBytes(dir, 'paired'),
    )
    await expectSameInRedis(key, creds, signal)
    const bytes = await allRedisBytes()
    for (const secret of [
      Buffer.from(creds.noiseKey.private),
      Buffer.from(CONTACT.name),
      Buffer.from(CONTACT.phone),
      signal,
    ]) {
      expect(bytes.includes(secret)).toBe(false)
    }
    const again = await runCli(['--data-dir', dir, '--redis-url', redis.url], { DATA_KEY: key })
    expect(again.stdout).toMatch(/^migrated 0 sessions \(0 rows\), skipped 2 already in Redis$/m)
  })

  it('moves every session without DATA_KEY', async () => {
    const { dir, creds, signal } = await dataDirWithSessions()
    const result = await migrateLmdbToRedis({ dataDir: dir, redisUrl: redis.url })
    expect(result.copied.sort()).toEqual(['paired', 'waiting'])
    await expectSameInRedis(undefined, creds, signal)
  })

  it('stops with one line and exit 1 on a wrong DATA_KEY, writing nothing', async () => {
    const { dir } = await dataDirWithSessions(randomBytes(32).toString('base64'))
    const run = await runCli(['--data-dir', dir, '--redis-url', redis.url], {
      DATA_KEY: randomBytes(32).toString('hex'),
    })
    expect(run.code).toBe(1)
    expect(run.stderr).toBe('migration failed: DATA_KEY does not match the key this DATA_DIR was written with\n')
    expect((await redis.conn.command(['KEYS', '*'])) as Buffer[]).toEqual([])
    const missing = await runCli([], {})
    expect(missing.code).toBe(1)
    expect(missing.stderr).toMatch(/^migration failed: --data-dir is missing; usage: npm run migrate:redis/)
  })
})
