/**
 * Baileys' `getMessage` as the link answers it (src/platform/baileys/link/retry-messages.ts): a kept message goes back only to
 * the chat it was sent to: any device of that contact, under its phone JID or its LID (through the LID mapping), or
 * the group; a receipt from any other chat gets nothing, and so does one for a message not kept.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { proto, WASocket } from '@whiskeysockets/baileys'
import pino from 'pino'
import { afterAll, describe, expect, it } from 'vitest'
import { RetryMessages } from '../../../../../src/platform/baileys/link/retry-messages.js'
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
