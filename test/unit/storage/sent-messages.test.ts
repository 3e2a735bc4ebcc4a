/**
 * @module test/unit/storage/sent-messages
 * The store of sent messages that answers retry receipts: round trip (also after reopening), bounded by count
 * (oldest first, across a reopen too) and by age (never returned, then removed), nothing kept with 0, emptied by a
 * reset (credentials cleared) and by deleting the session, and sealed with DATA_KEY like the other rows (the raw
 * file shows neither the text, nor the message id, nor the recipient's number). A row handed over with a Signal key
 * write commits in that write's transaction, under the same limits.
 */
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { proto } from '@whiskeysockets/baileys'
import { open } from 'lmdb'
import type { SentMessageLimits } from '../../../src/storage/sent-messages.js'
import { storeHarness } from '../../support/store-harness.js'

const { tempDir, openStore, closeAll } = storeHarness('sent-messages-')

const DAY = 86_400_000
const BOB = '15550007788@s.whatsapp.net'
const text = (t: string) => proto.Message.encode({ conversation: t }).finish()
const textOf = (bytes: Uint8Array | undefined) => (bytes ? proto.Message.decode(bytes).conversation : undefined)
const sent = (t: string, sentAt = Date.now()) => ({ message: text(t), chats: [BOB], sentAt })
/** How many rows the raw `sent` sub-database holds (the store closed). */
async function rawRows(dir: string): Promise<number> {
  const root = open({ path: path.join(dir, 'gateway.mdb'), noSubdir: true, maxDbs: 8 })
  try {
    return root.openDB({ name: 'sent', encoding: 'binary' }).getKeysCount()
  } finally {
    await root.close()
  }
}

/** The id of the last transaction committed to the store in `dir` (lmdb shares the open environment). */
function lastTxnId(dir: string): number {
  const root = open({ path: path.join(dir, 'gateway.mdb'), noSubdir: true, maxDbs: 8 })
  return (root.getStats() as { lastTxnId: number }).lastTxnId
}

describe('sent messages kept for retry receipts', () => {
  const limits: SentMessageLimits = { maxAgeMs: DAY, maxMessages: 3 }

  it('returns what was put, also after the store is opened again', async () => {
    const dir = tempDir()
    const kept = openStore(dir).sentMessages('s1', limits)
    await kept.put('3EB0AAA', sent('hello Bob'))
    const got = await kept.get('3EB0AAA')
    expect(textOf(got?.message)).toBe('hello Bob')
    expect(got?.chats).toEqual([BOB])
    expect(await kept.get('3EB0UNKNOWN')).toBeUndefined()
    expect(await openStore(dir).sentMessages('s2', limits).get('3EB0AAA')).toBeUndefined() // another session's
    await closeAll()
    expect(textOf((await openStore(dir).sentMessages('s1', limits).get('3EB0AAA'))?.message)).toBe('hello Bob')
  })

  it('keeps at most maxMessages per session, dropping the oldest, across a reopen too', async () => {
    const dir = tempDir()
    const kept = openStore(dir).sentMessages('s1', limits)
    const t0 = Date.now()
    for (let i = 1; i <= 5; i++) await kept.put(`M${i}`, sent(`message ${i}`, t0 + i))
    expect(await kept.get('M1')).toBeUndefined()
    expect(await kept.get('M2')).toBeUndefined()
    for (const id of ['M3', 'M4', 'M5']) expect(await kept.get(id)).toBeDefined()
    await closeAll()
    expect(await rawRows(dir)).toBe(3)

    const reopened = openStore(dir).sentMessages('s1', limits)
    await reopened.put('M6', sent('message 6', t0 + 6))
    expect(await reopened.get('M3')).toBeUndefined() // the oldest, known from the stored rows
    for (const id of ['M4', 'M5', 'M6']) expect(await reopened.get(id)).toBeDefined()
  })

  it('never returns a message older than maxAgeMs, and prune() removes it', async () => {
    const dir = tempDir()
    const kept = openStore(dir).sentMessages('s1', { maxAgeMs: 60_000, maxMessages: 10 })
    await kept.put('OLD', sent('an hour ago', Date.now() - 3_600_000))
    await kept.put('NEW', sent('just now'))
    expect(await kept.get('OLD')).toBeUndefined()
    expect(textOf((await kept.get('NEW'))?.message)).toBe('just now')
    await kept.prune()
    await closeAll()
    expect(await rawRows(dir)).toBe(1)
  })

  it('keeps nothing with maxMessages 0', async () => {
    const dir = tempDir()
    const kept = openStore(dir).sentMessages('s1', { maxAgeMs: DAY, maxMessages: 0 })
    await kept.put('M1', sent('not kept'))
    expect(await kept.get('M1')).toBeUndefined()
    await closeAll()
    expect(await rawRows(dir)).toBe(0)
  })

  it('is emptied when the credentials are cleared (reset, logout) and when the session is deleted', async () => {
    const dir = tempDir()
    const store = openStore(dir)
    for (const id of ['s1', 's2', 's3']) {
      await store.putSession({ id, secretHash: 'a'.repeat(64), createdAt: 1, qrDeadline: null })
      await store.sentMessages(id, limits).put(`M-${id}`, sent(`from ${id}`))
    }
    await store.auth('s1').clear()
    await store.deleteSession('s2')
    expect(await store.sentMessages('s1', limits).get('M-s1')).toBeUndefined()
    expect(await store.sentMessages('s2', limits).get('M-s2')).toBeUndefined()
    expect(textOf((await store.sentMessages('s3', limits).get('M-s3'))?.message)).toBe('from s3')
    await closeAll()
    expect(await rawRows(dir)).toBe(1)
  })

  it('is sealed with DATA_KEY: the raw file shows no text, message id or number', async () => {
    const dir = tempDir()
    const kept = openStore(dir, randomBytes(32).toString('base64')).sentMessages('s1', limits)
    await kept.put('3EB0SECRETID42', sent('the secret plan'))
    expect(textOf((await kept.get('3EB0SECRETID42'))?.message)).toBe('the secret plan')
    await closeAll()
    const raw = fs.readFileSync(path.join(dir, 'gateway.mdb'))
    for (const needle of [
      'the secret plan',
      Buffer.from('the secret plan').toString('base64'),
      '3EB0SECRETID42',
      '15550007788',
    ]) {
      expect(raw.includes(Buffer.from(needle)), needle).toBe(false)
    }
  })

  it("rides in a Signal key write: the keys and the row commit in that write's one transaction", async () => {
    const dir = tempDir()
    const store = openStore(dir)
    const kept = store.sentMessages('s1', limits)
    const keys = store.auth('s1').keys
    const before = lastTxnId(dir)
    await keys.set({
      session: { '15550007788.0': Buffer.from('ratchet') },
      ...kept.keyWrite!('M1', sent('with the keys')),
    })
    expect(lastTxnId(dir)).toBe(before + 1)
    expect(textOf((await kept.get('M1'))?.message)).toBe('with the keys')
    expect((await keys.get('session', ['15550007788.0']))['15550007788.0']).toEqual(Buffer.from('ratchet'))
    // the row is not a Signal key
    expect(await keys.get('gateway-sent-message' as 'session', ['M1'])).toEqual({})
    // the same limits as put(): the oldest goes first
    const t0 = Date.now()
    for (let i = 2; i <= 4; i++) await keys.set({ ...kept.keyWrite!(`M${i}`, sent(`message ${i}`, t0 + i)) })
    expect(await kept.get('M1')).toBeUndefined()
    for (const id of ['M2', 'M3', 'M4']) expect(await kept.get(id)).toBeDefined()
  })

  it('gives no key write to make with maxMessages 0', () => {
    const kept = openStore(tempDir()).sentMessages('s1', { maxAgeMs: DAY, maxMessages: 0 })
    expect(kept.keyWrite!('M1', sent('not kept'))).toBeUndefined()
  })
})
