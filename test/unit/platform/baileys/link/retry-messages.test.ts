/**
 * Baileys' `getMessage` as the link answers it (src/platform/baileys/link/retry-messages.ts): a kept message goes back only to
 * the chat it was sent to: any device of that contact, under its phone JID or its LID (through the LID mapping), or
 * the group; a receipt from any other chat gets nothing, and so does one for a message not kept. A message being
 * sent is kept in the commit of its own relay's key transaction (Baileys' real `addTransactionCapability` over the
 * link's key cache and the lmdb store): one transaction for the keys and the row, none after the ack; and, when the
 * store keeps at least Baileys' 512, no second copy in Baileys' memory.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { addTransactionCapability, type proto, type WASocket } from '@whiskeysockets/baileys'
import { open } from 'lmdb'
import pino from 'pino'
import { afterAll, describe, expect, it } from 'vitest'
import { cachedKeyStore } from '../../../../../src/platform/baileys/link/key-cache.js'
import { BAILEYS_RECENT_MESSAGES, RetryMessages } from '../../../../../src/platform/baileys/link/retry-messages.js'
import { openLmdbStore } from '../../../../../src/storage/lmdb-store.js'

const BOB_PN = '15550000002@s.whatsapp.net'
const BOB_LID = '100000000000002@lid'
const GROUP = '120363000000000001@g.us'
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'retry-messages-'))
const store = openLmdbStore(dir)
afterAll(async () => {
  await store.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

/** Just the LID mapping Baileys' socket offers. */
const sock = {
  signalRepository: {
    lidMapping: {
      getPNForLID: async (lid: string) => (lid === BOB_LID ? BOB_PN : null),
      getLIDForPN: async (pn: string) => (pn === BOB_PN ? BOB_LID : null),
    },
  },
} as unknown as WASocket

function retries(session: string) {
  const r = new RetryMessages(
    store.sentMessages(session, { maxAgeMs: 60_000, maxMessages: 10 }),
    pino({ level: 'silent' }),
  )
  r.start(sock, 60_000)
  return r
}

describe('getMessage for retry receipts', () => {
  it('gives a kept message back to any device of the contact it went to, under its phone JID or its LID', async () => {
    const r = retries('s1')
    await r.remember('M1', [BOB_PN], { conversation: 'for Bob' })
    for (const remoteJid of [BOB_PN, '15550000002:3@s.whatsapp.net', BOB_LID, '100000000000002:1@lid']) {
      expect((await r.getMessage({ remoteJid, id: 'M1', fromMe: true }))?.conversation, remoteJid).toBe('for Bob')
    }
    r.stop()
  })

  it('gives nothing to another chat, for an unknown id, or to another session', async () => {
    const r = retries('s2')
    await r.remember('M2', [BOB_LID], { conversation: 'only Bob' })
    expect(await r.getMessage({ remoteJid: '15550000003@s.whatsapp.net', id: 'M2', fromMe: true })).toBeUndefined()
    expect(await r.getMessage({ remoteJid: GROUP, id: 'M2', fromMe: true, participant: BOB_PN })).toBeUndefined()
    expect(await r.getMessage({ remoteJid: BOB_LID, id: 'M-unknown', fromMe: true })).toBeUndefined()
    expect(await retries('s3').getMessage({ remoteJid: BOB_LID, id: 'M2', fromMe: true })).toBeUndefined()
    r.stop()
  })

  it('gives a group message back for that group', async () => {
    const r = retries('s4')
    const message: proto.IMessage = { extendedTextMessage: { text: 'team news' } }
    await r.remember('M3', [GROUP], message)
    expect(
      (await r.getMessage({ remoteJid: GROUP, id: 'M3', fromMe: true, participant: BOB_PN }))?.extendedTextMessage
        ?.text,
    ).toBe('team news')
    expect(await r.getMessage({ remoteJid: BOB_PN, id: 'M3', fromMe: true })).toBeUndefined()
    r.stop()
  })

  it("answers nothing without a store (only Baileys' own memory then)", async () => {
    const r = new RetryMessages(undefined, pino({ level: 'silent' }))
    await r.remember('M4', [BOB_PN], { conversation: 'not kept' })
    expect(await r.getMessage({ remoteJid: BOB_PN, id: 'M4', fromMe: true })).toBeUndefined()
  })
})

describe("a message kept in its own send's key commit", () => {
  const silent = pino({ level: 'silent' })
  /** The id of the store's last committed transaction (lmdb shares the open environment). */
  const lastTxnId = () =>
    (open({ path: path.join(dir, 'gateway.mdb'), noSubdir: true, maxDbs: 8 }).getStats() as { lastTxnId: number })
      .lastTxnId

  /** A socket as far as the join sees it: Baileys' transactional key store over ours, and its retry manager. */
  function sendingSocket(session: string, maxMessages = 10) {
    const keys = addTransactionCapability(cachedKeyStore(store.auth(session).keys), silent, {
      maxCommitRetries: 1,
      delayBetweenTriesMs: 1,
    })
    const recorded: string[] = []
    const messageRetryManager = {
      addRecentMessage: (_to: string, id: string, _message: proto.IMessage) => void recorded.push(id),
    }
    const socket = { ...sock, authState: { creds: {}, keys }, messageRetryManager } as unknown as WASocket
    const r = new RetryMessages(store.sentMessages(session, { maxAgeMs: 60_000, maxMessages }), silent)
    r.start(socket, 60_000)
    /**
     * What Baileys' relayMessage does: in one key transaction, the ratchet's write, then the message recorded;
     * `beforeCommit` runs last inside it (a retry receipt that comes back before the commit).
     */
    const relay = (id: string, message: proto.IMessage, beforeCommit?: () => Promise<void>) =>
      keys.transaction(async () => {
        await keys.set({ session: { '100000000000002.0': Buffer.from(`ratchet after ${id}`) } })
        messageRetryManager.addRecentMessage(BOB_LID, id, message)
        await beforeCommit?.()
      }, 'me')
    return { r, keys, relay, recorded }
  }

  it('commits the row with the Signal keys, in one transaction, and writes nothing after the ack', async () => {
    const { r, keys, relay, recorded } = sendingSocket('s5')
    const before = lastTxnId()
    r.expect('M5', [BOB_LID, BOB_PN])
    await relay('M5', { conversation: 'in one commit' })
    expect(lastTxnId()).toBe(before + 1)
    expect(recorded).toEqual(['M5']) // Baileys' own record still made
    await r.remember('M5', [BOB_LID, BOB_PN], { conversation: 'in one commit' }) // after the ack
    r.forget('M5')
    expect(lastTxnId()).toBe(before + 1)
    expect((await r.getMessage({ remoteJid: BOB_PN, id: 'M5', fromMe: true }))?.conversation).toBe('in one commit')
    expect((await keys.get('session', ['100000000000002.0']))['100000000000002.0']).toEqual(
      Buffer.from('ratchet after M5'),
    )
    r.stop()
  })

  it('keeps a message relayed without being expected only when remembered, in a write of its own', async () => {
    const { r, relay } = sendingSocket('s6')
    await relay('M6', { conversation: 'not expected' })
    expect(await r.getMessage({ remoteJid: BOB_LID, id: 'M6', fromMe: true })).toBeUndefined()
    const before = lastTxnId()
    await r.remember('M6', [BOB_LID], { conversation: 'not expected' })
    expect(lastTxnId()).toBe(before + 1)
    expect((await r.getMessage({ remoteJid: BOB_LID, id: 'M6', fromMe: true }))?.conversation).toBe('not expected')
    r.stop()
  })

  it('keeps nothing for a send that was forgotten before Baileys relayed it', async () => {
    const { r, relay } = sendingSocket('s7')
    r.expect('M7', [BOB_LID])
    r.forget('M7') // the send failed before the relay (a media upload, a closed socket)
    await relay('M7', { conversation: 'never sent' })
    expect(await r.getMessage({ remoteJid: BOB_LID, id: 'M7', fromMe: true })).toBeUndefined()
    r.stop()
  })

  it("leaves Baileys' memory copy out when the store keeps at least as many messages, and still answers the retry", async () => {
    const { r, relay, recorded } = sendingSocket('s8', BAILEYS_RECENT_MESSAGES)
    r.expect('M8', [BOB_LID])
    await relay('M8', { conversation: 'kept once, on disk' })
    await r.remember('M8', [BOB_LID], { conversation: 'kept once, on disk' })
    r.forget('M8')
    expect(recorded).toEqual([])
    expect((await r.getMessage({ remoteJid: BOB_LID, id: 'M8', fromMe: true }))?.conversation).toBe(
      'kept once, on disk',
    )
    // what the store does not keep in the relay's commit (a message not expected) Baileys still keeps itself
    await relay('M9', { conversation: 'not expected' })
    expect(recorded).toEqual(['M9'])
    r.stop()
  })

  it('answers a retry receipt that comes back before the commit, only to the chat it went to', async () => {
    const { r, relay, recorded } = sendingSocket('s10', BAILEYS_RECENT_MESSAGES)
    r.expect('M11', [BOB_LID])
    const early: (string | null | undefined)[] = []
    await relay('M11', { conversation: 'asked for at once' }, async () => {
      early.push((await r.getMessage({ remoteJid: BOB_PN, id: 'M11', fromMe: true }))?.conversation)
      early.push(
        (await r.getMessage({ remoteJid: '15550000003@s.whatsapp.net', id: 'M11', fromMe: true }))?.conversation,
      )
    })
    expect(early).toEqual(['asked for at once', undefined])
    expect(recorded).toEqual([])
    r.forget('M11') // the send ended (its ack failed, say): the committed row answers from now on
    expect((await r.getMessage({ remoteJid: BOB_LID, id: 'M11', fromMe: true }))?.conversation).toBe(
      'asked for at once',
    )
    r.stop()
  })

  it("gives the message to Baileys' memory after all when the row cannot be written", async () => {
    const recorded: string[] = []
    const messageRetryManager = {
      addRecentMessage: (_to: string, id: string, _message: proto.IMessage) => void recorded.push(id),
    }
    const keys = {
      isInTransaction: () => true,
      set: async () => {
        throw new Error('disk full')
      },
    }
    const socket = { ...sock, authState: { creds: {}, keys }, messageRetryManager } as unknown as WASocket
    const r = new RetryMessages(store.sentMessages('s9', { maxAgeMs: 60_000, maxMessages: 1_000 }), silent)
    r.start(socket, 60_000)
    r.expect('M10', [BOB_LID])
    messageRetryManager.addRecentMessage(BOB_LID, 'M10', { conversation: 'write fails' })
    await new Promise(resolve => setImmediate(resolve))
    expect(recorded).toEqual(['M10'])
    r.stop()
  })
})
