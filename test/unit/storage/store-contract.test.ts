/**
 * @module test/unit/storage/store-contract
 * The `Store` contract, run on both engines (lmdb in a temp folder, Redis on its own redis-server), with and
 * without DATA_KEY: sessions, credentials, Signal keys and contacts survive a close and reopen; keys set to null
 * are deleted and sessions stay apart; deleting a session removes everything it owns and nothing else; sent
 * messages round-trip within their limits and go with a reset; conversations round-trip and go one by one or all; a
 * `keys.set()` batch that cannot be written whole writes nothing; the platform facts (the learned web client version)
 * survive a reopen and any session's delete.
 */
import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { initAuthCreds, proto, type SignalDataSet } from '@whiskeysockets/baileys'
import { openRedisStore } from '../../../src/cluster/store/redis-store.js'
import type { Store } from '../../../src/storage/types.js'
import { redisHarness } from '../../support/redis-harness.js'
import { describeWithRedis } from '../../support/redis-server.js'
import { storeHarness } from '../../support/store-harness.js'

const redis = redisHarness() // emptied after each test, once its stores are closed
const stores = storeHarness('contract-')

interface Engine {
  name: string
  /** A fresh, empty place to open stores on. */
  place(): string
  open(place: string, dataKey?: string): Store
}

const engines: Engine[] = [
  { name: 'lmdb', place: stores.tempDir, open: stores.openStore },
  { name: 'redis', place: () => redis.url, open: (url, dataKey) => stores.keep(openRedisStore(url, { dataKey })) },
]

const record = (id: string, qrDeadline: number | null = null) => ({
  id,
  secretHash: 'a'.repeat(64),
  createdAt: 1,
  qrDeadline,
})

for (const engine of engines) {
  for (const keyed of [false, true]) {
    const dataKey = keyed ? randomBytes(32).toString('base64') : undefined
    const describeOn = engine.name === 'redis' ? describeWithRedis : describe
    describeOn(`${engine.name} store${keyed ? ' with DATA_KEY' : ''}`, () => {
      it('keeps sessions, creds, keys and contacts after close and reopen', async () => {
        const place = engine.place()
        const store = engine.open(place, dataKey)
        const creds = initAuthCreds()
        await store.putSession(record('s1', 123))
        await store.putSession({ ...record('s2'), unpairedSince: 5 })
        await store.auth('s1').writeCreds(creds)
        await store.auth('s1').keys.set({
          'pre-key': { '1': { public: Buffer.from([1, 2, 3]), private: Buffer.from([4, 5, 6]) } },
          'app-state-sync-key': { k1: proto.Message.AppStateSyncKeyData.fromObject({ keyData: Buffer.from([9, 9]) }) },
        })
        await store.contacts('s1').upsert([{ id: '5511@s.whatsapp.net', name: 'Ana', phone: '5511' }])
        await stores.closeAll()

        const again = engine.open(place, dataKey)
        expect((await again.listSessions()).map(s => s.id).sort()).toEqual(['s1', 's2'])
        expect(await again.getSession('s1')).toEqual(record('s1', 123))
        expect(await again.getSession('s2')).toEqual({ ...record('s2'), unpairedSince: 5 })
        expect(await again.getSession('nope')).toBeUndefined()
        const read = await again.auth('s1').readCreds()
        expect(Buffer.from(read!.noiseKey.private)).toEqual(Buffer.from(creds.noiseKey.private))
        expect(read!.registrationId).toBe(creds.registrationId)
        const pre = await again.auth('s1').keys.get('pre-key', ['1', '2'])
        expect(Object.keys(pre)).toEqual(['1'])
        expect(Buffer.from(pre['1']!.public)).toEqual(Buffer.from([1, 2, 3]))
        const appKeys = await again.auth('s1').keys.get('app-state-sync-key', ['k1'])
        expect(appKeys.k1).toBeInstanceOf(proto.Message.AppStateSyncKeyData)
        expect(Buffer.from(appKeys.k1!.keyData!)).toEqual(Buffer.from([9, 9]))
        expect(await again.contacts('s1').all()).toEqual([{ id: '5511@s.whatsapp.net', name: 'Ana', phone: '5511' }])
        expect(await again.auth('s2').readCreds()).toBeUndefined()
      })

      it('deletes keys set to null and keeps sessions apart', async () => {
        const store = engine.open(engine.place(), dataKey)
        const keys = store.auth('a').keys
        await keys.set({ session: { x: Buffer.from([1]), y: Buffer.from([2]) } })
        await store.auth('ab').keys.set({ session: { x: Buffer.from([7]) } })
        await keys.set({ session: { x: null } })
        expect(Object.keys(await keys.get('session', ['x', 'y']))).toEqual(['y'])
        expect(Buffer.from((await store.auth('ab').keys.get('session', ['x'])).x!)).toEqual(Buffer.from([7]))
        await store.auth('a').clear()
        expect(await keys.get('session', ['x', 'y'])).toEqual({})
        expect(Object.keys(await store.auth('ab').keys.get('session', ['x']))).toEqual(['x'])
        // a session reset and written again reads back what was written after the reset
        await keys.set({ session: { x: Buffer.from([3]) } })
        expect(Buffer.from((await keys.get('session', ['x'])).x!)).toEqual(Buffer.from([3]))
      })

      it('deleteSession removes the record and everything the session owns, and nothing else', async () => {
        const store = engine.open(engine.place(), dataKey)
        for (const id of ['gone', 'kept']) {
          await store.putSession(record(id))
          await store.auth(id).writeCreds(initAuthCreds())
          await store.auth(id).keys.set({ 'sender-key': { g: Buffer.from([1]) } })
          await store.contacts(id).upsert([{ id: 'c@s.whatsapp.net', name: 'C' }])
          await store.conversations(id).put([{ phone: '5511', seenAt: 1 }])
          await store
            .sentMessages(id, { maxAgeMs: 60_000, maxMessages: 5 })
            .put('m1', { message: Buffer.from([1]), chats: ['c@s.whatsapp.net'], sentAt: Date.now() })
        }
        await store.deleteSession('gone')
        expect(await store.getSession('gone')).toBeUndefined()
        expect(await store.auth('gone').readCreds()).toBeUndefined()
        expect(await store.auth('gone').keys.get('sender-key', ['g'])).toEqual({})
        expect(await store.contacts('gone').all()).toEqual([])
        expect(await store.conversations('gone').all()).toEqual([])
        expect(await store.sentMessages('gone', { maxAgeMs: 60_000, maxMessages: 5 }).get('m1')).toBeUndefined()
        expect(await store.getSession('kept')).toBeDefined()
        expect(await store.auth('kept').readCreds()).toBeDefined()
        expect(Object.keys(await store.auth('kept').keys.get('sender-key', ['g']))).toEqual(['g'])
        expect(await store.contacts('kept').all()).toHaveLength(1)
        expect(await store.conversations('kept').all()).toEqual([{ phone: '5511', seenAt: 1 }])
        expect(await store.sentMessages('kept', { maxAgeMs: 60_000, maxMessages: 5 }).get('m1')).toBeDefined()
      })

      it('keeps sent messages within their count and age, across a reopen, and drops them on a reset', async () => {
        const place = engine.place()
        const limits = { maxAgeMs: 60_000, maxMessages: 2 }
        const sent = (n: number, sentAt = Date.now()) => ({
          message: Buffer.from([n]),
          chats: ['b@s.whatsapp.net'],
          sentAt,
        })
        const store = engine.open(place, dataKey)
        const box = store.sentMessages('s', limits)
        await box.put('m1', sent(1))
        await box.put('m2', sent(2))
        await stores.closeAll()
        const reopened = engine.open(place, dataKey)
        const again = reopened.sentMessages('s', limits)
        await again.put('m3', sent(3))
        expect(await again.get('m1')).toBeUndefined() // the oldest went first
        expect(Buffer.from((await again.get('m2'))!.message)).toEqual(Buffer.from([2]))
        expect((await again.get('m3'))!.chats).toEqual(['b@s.whatsapp.net'])
        await again.put('old', sent(4, Date.now() - 120_000))
        expect(await again.get('old')).toBeUndefined()
        await reopened.auth('s').clear()
        expect(await again.get('m3')).toBeUndefined()
      })

      it('keeps conversations across a reopen, apart per session, and removes them one by one or all', async () => {
        const place = engine.place()
        const store = engine.open(place, dataKey)
        await store.conversations('s').put([
          { phone: '5511', seenAt: 1 },
          { phone: '5522', seenAt: 2 },
        ])
        await store.conversations('s').put([{ phone: '5511', seenAt: 3 }])
        await store.conversations('other').put([{ phone: '5533', seenAt: 4 }])
        await stores.closeAll()
        const again = engine.open(place, dataKey)
        const sorted = async (id: string) => (await again.conversations(id).all()).sort((a, b) => a.seenAt - b.seenAt)
        expect(await sorted('s')).toEqual([
          { phone: '5522', seenAt: 2 },
          { phone: '5511', seenAt: 3 },
        ])
        await again.conversations('s').remove(['5522'])
        expect(await sorted('s')).toEqual([{ phone: '5511', seenAt: 3 }])
        await again.conversations('s').clear()
        expect(await sorted('s')).toEqual([])
        expect(await sorted('other')).toEqual([{ phone: '5533', seenAt: 4 }])
      })

      it('writes a keys.set() batch whole or not at all', async () => {
        const store = engine.open(engine.place(), dataKey)
        const keys = store.auth('s').keys
        await keys.set({ session: { a: Buffer.from([1]) } })
        // One value of the batch cannot be stored (JSON has no BigInt): nothing of the batch may land.
        const broken = {
          session: { a: null, b: Buffer.from([2]) },
          'sender-key': { g: 10n },
        } as unknown as SignalDataSet
        await expect(keys.set(broken)).rejects.toThrow()
        expect(Object.keys(await keys.get('session', ['a', 'b']))).toEqual(['a'])
        expect(await keys.get('sender-key', ['g'])).toEqual({})
        await keys.set({ session: { a: null, b: Buffer.from([2]) }, 'sender-key': { g: Buffer.from([3]) } })
        expect(Object.keys(await keys.get('session', ['a', 'b']))).toEqual(['b'])
        expect(Object.keys(await keys.get('sender-key', ['g']))).toEqual(['g'])
      })

      it('keeps the platform facts across a reopen, apart from every session', async () => {
        const place = engine.place()
        const store = engine.open(place, dataKey)
        expect(await store.platformFacts.read('client-version')).toBeUndefined()
        await store.platformFacts.write('client-version', '2.3000.1040000000')
        await store.platformFacts.write('client-version', '2.3000.1050000000')
        await store.putSession(record('s1'))
        await store.deleteSession('s1')
        await stores.closeAll()
        const again = engine.open(place, dataKey)
        expect(await again.platformFacts.read('client-version')).toBe('2.3000.1050000000')
        expect(await again.listSessions()).toEqual([])
      })
    })
  }
}
