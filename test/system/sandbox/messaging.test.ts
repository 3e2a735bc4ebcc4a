import { createHash } from 'node:crypto'
import type { BinaryNode, WAMessage } from '@whiskeysockets/baileys'
import sharp from 'sharp'
import { beforeAll, describe, expect, it } from 'vitest'
import type { InboxMessage } from '../../../src/sandbox/types.js'
import { postJson, type TestSocket } from '../../support/system/baileys-client.js'
import { namedAccounts, sandboxFixture } from '../../support/system/sandbox-fixture.js'
import { ALICE, BOB } from '../../support/system/sandbox-world.js'
import { waitFor } from '../../support/wait-for.js'

describe('sandbox: a logged-in client sends and receives end-to-end encrypted messages', () => {
  const world = sandboxFixture({ world: { accounts: namedAccounts({ [ALICE]: 'Alice', [BOB]: 'Bob' }) } })
  let alice: TestSocket
  const upserts: WAMessage[] = []

  beforeAll(async () => {
    alice = (await world.login(ALICE, { keepAliveIntervalMs: 2000 })).socket
    alice.sock.ev.on('messages.upsert', ({ messages }) => upserts.push(...messages))
  })

  it('the recipient phone decrypts a 1:1 text', async () => {
    // The raw receipt stanzas: Baileys' own messages.update is held back by its event buffer while the initial
    // sync runs, which made this check slow and flaky under load.
    const receipts: BinaryNode[] = []
    alice.sock.ws.on('CB:receipt', (node: BinaryNode) => receipts.push(node))
    const sent = await alice.sock.sendMessage(`${BOB}@s.whatsapp.net`, { text: 'hello bob' })
    const got = await world.arrived(BOB, sent?.key.id, 20_000)
    expect(got).toMatchObject({ chat: ALICE, from: ALICE, type: 'text', text: 'hello bob', status: false })
    // Bob's phone sends a delivery receipt back (no type attribute = delivered).
    const receipt = await waitFor(
      'delivery receipt',
      () => receipts.find(r => r.attrs.id === sent?.key.id),
      20_000,
      100,
    )
    expect(receipt.attrs.type).toBeUndefined()
    expect(receipt.attrs.from).toMatch(new RegExp(`^(${BOB}|\\d+)(:\\d+)?@(s\\.whatsapp\\.net|lid)$`))
  })

  it('a follow-up text (msg, not pkmsg) is decrypted too', async () => {
    const sent = await alice.sock.sendMessage(`${BOB}@s.whatsapp.net`, { text: 'second' })
    const got = await world.arrived(BOB, sent?.key.id, 20_000)
    expect(got.text).toBe('second')
  })

  it('the recipient downloads, MAC-checks and decrypts an image', async () => {
    const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 10, b: 10 } } })
      .jpeg()
      .toBuffer()
    const sent = await alice.sock.sendMessage(`${BOB}@s.whatsapp.net`, { image: jpeg, caption: 'red' })
    const got = await world.arrived(BOB, sent?.key.id)
    expect(got.error).toBeUndefined()
    expect(got).toMatchObject({ type: 'image', caption: 'red' })
    expect(got.media?.sha256).toBe(createHash('sha256').update(jpeg).digest('hex'))
    expect(got.media?.size).toBe(jpeg.length)
    expect(got.media?.mimetype).toBe('image/jpeg')
  })

  it('documents, audio (not a voice note), locations and contacts arrive as typed records', async () => {
    const to = `${BOB}@s.whatsapp.net`
    const doc = Buffer.alloc(50_000, 7)
    const audio = Buffer.alloc(4_000, 3)
    const vcard = 'BEGIN:VCARD\nVERSION:3.0\nFN:Carol\nTEL;type=CELL;waid=15550000003:+1 555 000 0003\nEND:VCARD'
    const sent = [
      await alice.sock.sendMessage(to, {
        document: doc,
        mimetype: 'application/pdf',
        fileName: 'report.pdf',
        caption: 'the report',
      }),
      await alice.sock.sendMessage(to, { audio, mimetype: 'audio/ogg; codecs=opus', seconds: 3, ptt: false }),
      await alice.sock.sendMessage(to, {
        location: { degreesLatitude: 52.5, degreesLongitude: 13.4, name: 'Berlin', address: 'Mitte' },
      }),
      await alice.sock.sendMessage(to, {
        contacts: { displayName: 'Carol', contacts: [{ displayName: 'Carol', vcard }] },
      }),
    ]
    const ids = sent.map(m => m?.key.id)
    const got = await waitFor(
      'four typed messages',
      async () => {
        const inbox = await world.inboxOf(BOB)
        const found = ids.map(id => inbox.find(m => m.id === id))
        return found.every(Boolean) ? (found as InboxMessage[]) : undefined
      },
      30_000,
      100,
    )
    const [d, a, l, c] = got
    expect(d).toMatchObject({
      type: 'document',
      caption: 'the report',
      media: {
        mimetype: 'application/pdf',
        fileName: 'report.pdf',
        size: doc.length,
        sha256: createHash('sha256').update(doc).digest('hex'),
      },
    })
    expect(a).toMatchObject({ type: 'audio', media: { ptt: false, seconds: 3, size: audio.length } })
    expect(l).toMatchObject({
      type: 'location',
      location: { latitude: 52.5, longitude: 13.4, name: 'Berlin', address: 'Mitte' },
    })
    expect(c).toMatchObject({ type: 'contact', contact: { displayName: 'Carol', vcard } })
  })

  it('a phone the world does not list is registered on first lookup and decrypts what it gets', async () => {
    const stranger = '15550009999'
    const [onPlatform] = (await alice.sock.onWhatsApp(stranger)) ?? []
    expect(onPlatform?.exists).toBe(true)
    const sent = await alice.sock.sendMessage(`${stranger}@s.whatsapp.net`, { text: 'hello stranger' })
    const got = await world.arrived(stranger, sent?.key.id, 20_000)
    expect(got.text).toBe('hello stranger')
  })

  it('a simulated peer can message the client (inbound pkmsg decrypted by Baileys)', async () => {
    const res = await postJson(`${world.sandbox.url}/accounts/${BOB}/send`, {
      to: ALICE,
      text: 'hi alice',
      id: 'SBXINBOUND1',
    })
    expect(res.body.delivered).toBe(1)
    const msg = await waitFor('inbound upsert', () => upserts.find(m => m.key.id === 'SBXINBOUND1'), 30_000, 100)
    expect(msg.message?.conversation).toBe('hi alice')
    expect(msg.pushName).toBe('Bob')
  })

  it('stays open past several keep-alive intervals, with pings answered', async () => {
    let results = 0
    const onFrame = (frame: { tag?: string; attrs?: Record<string, string> }): void => {
      if (frame.tag === 'iq' && frame.attrs?.type === 'result') results++
    }
    alice.sock.ws.on('frame', onFrame)
    const closedBefore = alice.updates.some(u => u.connection === 'close')
    // Baileys drops the link when nothing arrives for keepAliveIntervalMs + 5 s (7 s here); wait longer than that.
    await new Promise(r => setTimeout(r, 9000))
    alice.sock.ws.off('frame', onFrame)
    expect(closedBefore).toBe(false)
    expect(alice.updates.some(u => u.connection === 'close')).toBe(false)
    expect(results).toBeGreaterThanOrEqual(3)
  })
})
