import { initAuthCreds, proto, WA_CERT_DETAILS, type BinaryNode } from '@whiskeysockets/baileys'
import { mkdtemp, rm } from 'node:fs/promises'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import pino from 'pino'
import sharp from 'sharp'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { loadConfig } from '../../../../src/config.js'
import type { GatewayError } from '../../../../src/protocol/errors.js'
import type { CloseReason, LinkEvents, PlatformLink } from '../../../../src/platform/link.js'
import type { AuthStore, ContactStore, StoredContact } from '../../../../src/storage/types.js'
import { removeMediaTempDirs } from '../../../../src/media/temp-dir.js'
import { FakeSocket } from '../../../support/fakes/fake-socket.js'
import { waitFor } from '../../../support/wait-for.js'

const holder = vi.hoisted(() => ({ sockets: [] as unknown[] }))

vi.mock('@whiskeysockets/baileys', async importOriginal => {
  const actual = await importOriginal<typeof import('@whiskeysockets/baileys')>()
  const make = (config: Record<string, unknown>) => {
    const { FakeSocket: Fake } = holder as unknown as { FakeSocket: typeof FakeSocket }
    const sock = new Fake(config)
    holder.sockets.push(sock)
    return sock
  }
  return { ...actual, default: make, makeWASocket: make }
})

const { createBaileysLink } = await import('../../../../src/platform/baileys/baileys-link.js')
;(holder as unknown as { FakeSocket: typeof FakeSocket }).FakeSocket = FakeSocket


interface Harness {
  link: PlatformLink
  sock: FakeSocket
  events: Array<[keyof LinkEvents, ...unknown[]]>
  credsWrites: unknown[]
  contacts: StoredContact[]
}

let mediaDir: string
let server: http.Server
let base: string
beforeAll(async () => {
  mediaDir = await mkdtemp(path.join(os.tmpdir(), 'link-test-'))
  const jpeg = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#226644' } }).jpeg().toBuffer()
  server = http.createServer((req, res) => {
    if (req.url === '/p.jpg') { res.writeHead(200, { 'content-type': 'image/jpeg' }); res.end(jpeg) } else { res.writeHead(404); res.end() }
  })
  await new Promise<void>(r => server.listen(0, '127.0.0.1', r))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  server.closeAllConnections()
  await new Promise<void>(r => server.close(() => r()))
  await rm(mediaDir, { recursive: true, force: true })
  await removeMediaTempDirs()
})
beforeEach(() => { holder.sockets.length = 0 })

async function harness(opts: { creds?: ReturnType<typeof initAuthCreds>; contacts?: StoredContact[]; env?: Record<string, string>; sandbox?: boolean } = {}): Promise<Harness> {
  const events: Harness['events'] = []
  const credsWrites: unknown[] = []
  const contacts: StoredContact[] = [...(opts.contacts ?? [])]
  const auth: AuthStore = {
    readCreds: async () => opts.creds,
    writeCreds: async creds => { credsWrites.push(JSON.parse(JSON.stringify(creds))) },
    keys: { get: async () => ({}), set: async () => undefined },
    clear: async () => undefined,
  }
  const contactStore: ContactStore = {
    all: async () => contacts,
    upsert: async rows => { contacts.push(...rows) },
    clear: async () => { contacts.length = 0 },
  }
  const config = loadConfig({ MEDIA_ALLOW_PRIVATE_URLS: 'true', ACK_TIMEOUT_MS: '2000', QUERY_TIMEOUT_MS: '2000', ...opts.env })
  const link = createBaileysLink({
    id: 's1', auth, contacts: contactStore, logger: pino({ level: 'silent' }), config,
    ...(opts.sandbox ? { sandbox: { wsUrl: 'wss://127.0.0.1:9/ws', rootPublicKey: Buffer.alloc(32, 7).toString('base64'), caCert: 'PEM' } } : {}),
    events: {
      qr: qr => events.push(['qr', qr]),
      paired: me => events.push(['paired', me]),
      open: me => events.push(['open', me]),
      name: name => events.push(['name', name]),
      close: (reason, detail) => events.push(['close', reason, detail]),
    },
  })
  const sock = await waitFor('socket', () => holder.sockets[0] as FakeSocket | undefined, 5_000, 10)
  return { link, sock, events, credsWrites, contacts }
}

const closeEvents = (h: Harness) => h.events.filter(e => e[0] === 'close')
const errorOf = async (p: Promise<unknown>) => (await p.then(() => undefined, (e: unknown) => e)) as GatewayError

describe('baileys link: lifecycle', () => {
  it('maps qr, pairing, open, name and a 515 close; persists creds', async () => {
    const h = await harness()
    expect(h.sock.config.browser).toEqual(['Mac OS', 'Chrome', expect.any(String)])
    expect(h.sock.config.syncFullHistory).toBe(false)
    h.sock.ev.emit('connection.update', { qr: 'QR-1' })
    h.sock.authState.creds.me = { id: '5500000000000:7@s.whatsapp.net', lid: '900:7@lid' }
    h.sock.ev.emit('creds.update', { me: h.sock.authState.creds.me })
    h.sock.ev.emit('connection.update', { isNewLogin: true, qr: undefined })
    h.sock.ev.emit('connection.update', { connection: 'open' })
    h.sock.authState.creds.me.name = 'Ana'
    h.sock.ev.emit('creds.update', { me: h.sock.authState.creds.me })
    h.sock.end(Object.assign(new Error('Stream Errored (restart required)'), { output: { statusCode: 515 } }))
    await waitFor('close', () => closeEvents(h).length > 0, 5_000, 10)
    expect(h.events).toEqual([
      ['qr', 'QR-1'],
      ['paired', { id: '5500000000000:7@s.whatsapp.net', lid: '900:7@lid' }],
      ['open', { id: '5500000000000:7@s.whatsapp.net', lid: '900:7@lid', name: '' }],
      ['name', 'Ana'],
      ['close', 'restart-required', '515 Stream Errored (restart required)'],
    ])
    expect(h.sock.presence).toContainEqual(['available', undefined])
    await waitFor('creds writes', () => h.credsWrites.length >= 2, 5_000, 10)
    expect((h.credsWrites.at(-1) as { me: { name: string } }).me.name).toBe('Ana')
  })

  it('QR refs ending before a scan is qr-expired', async () => {
    const h = await harness()
    h.sock.end(Object.assign(new Error('QR refs attempts ended'), { output: { statusCode: 408 } }))
    await waitFor('close', () => closeEvents(h).length > 0, 5_000, 10)
    expect(closeEvents(h)[0]?.[1]).toBe<CloseReason>('qr-expired')
  })

  it('close() is idempotent and reports closed-by-us once', async () => {
    const h = await harness()
    h.sock.open()
    await h.link.close()
    await h.link.close()
    await waitFor('close', () => closeEvents(h).length > 0, 5_000, 10)
    await new Promise(r => setTimeout(r, 30))
    expect(closeEvents(h)).toHaveLength(1)
    expect(closeEvents(h)[0]?.[1]).toBe('closed-by-us')
    expect(h.sock.ended).toBe(true)
    await expect(h.link.sendMessage({ kind: 'phone', phone: '1' }, { type: 'text', text: 'x' })).rejects.toThrow('session not connected')
  })

  it('logout unlinks on the platform and still reports closed-by-us', async () => {
    const h = await harness({ creds: initAuthCreds() })
    h.sock.open()
    await h.link.logout()
    await waitFor('close', () => closeEvents(h).length > 0, 5_000, 10)
    expect(closeEvents(h)).toEqual([['close', 'closed-by-us', expect.any(String)]])
  })

  it('stores named contacts from upserts, updates and history sync', async () => {
    const h = await harness()
    h.sock.ev.emit('contacts.upsert', [{ id: '5511111111111@s.whatsapp.net', name: 'Ana' }, { id: '5522@s.whatsapp.net', notify: 'push' }])
    h.sock.ev.emit('contacts.update', [{ id: '333@lid', name: 'Caio' }])
    h.sock.ev.emit('messaging-history.set', { contacts: [{ id: '5544444444444@s.whatsapp.net', name: 'Dora' }], chats: [], messages: [] })
    await waitFor('contacts', () => h.contacts.length === 3 || undefined, 5_000, 10)
    expect(h.contacts.map(c => c.name)).toEqual(['Ana', 'Caio', 'Dora'])
  })

  it('sandbox mode overrides the root key, socket URL and agents', async () => {
    const saved = WA_CERT_DETAILS.PUBLIC_KEY
    try {
      const h = await harness({ sandbox: true })
      expect(Buffer.from(WA_CERT_DETAILS.PUBLIC_KEY).equals(Buffer.alloc(32, 7))).toBe(true)
      expect(h.sock.config.waWebSocketUrl).toBe('wss://127.0.0.1:9/ws')
      expect(h.sock.config.fetchAgent).toBeDefined()
      expect(h.sock.config.agent).toBe(h.sock.config.fetchAgent)
      expect((h.sock.config.options as { dispatcher?: unknown }).dispatcher).toBeDefined()
      await h.link.close()
    } finally {
      WA_CERT_DETAILS.PUBLIC_KEY = saved
    }
  })
})

describe('baileys link: sending', () => {
  it('sends text to the LID when one is known and resolves after the ack with the forced id', async () => {
    const h = await harness()
    h.sock.open()
    h.sock.lidByPn.set('5511999990000@s.whatsapp.net', '777@lid')
    const { messageId } = await h.link.sendMessage({ kind: 'phone', phone: '5511999990000' }, { type: 'text', text: 'hi' })
    expect(h.sock.sent).toHaveLength(1)
    expect(h.sock.sent[0]).toMatchObject({ jid: '777@lid', content: { text: 'hi', linkPreview: null }, opts: { messageId } })
    const second = await h.link.sendMessage({ kind: 'phone', phone: '5533' }, { type: 'text', text: 'x' })
    expect(h.sock.sent[1]?.jid).toBe('5533@s.whatsapp.net')
    expect(second.messageId).not.toBe(messageId)
  })

  it('a rejected ack fails the send with the platform error code; no ack times out', async () => {
    const h = await harness({ env: { ACK_TIMEOUT_MS: '200' } })
    h.sock.open()
    h.sock.ackAttrs = { error: '463' }
    const rejected = await errorOf(h.link.sendMessage({ kind: 'group', jid: '1@g.us' }, { type: 'text', text: 'x' }))
    expect([rejected.code, rejected.message]).toEqual(['PLATFORM_REJECTED', 'the platform rejected the message (error 463)'])
    h.sock.ackAttrs = null
    expect((await errorOf(h.link.sendMessage({ kind: 'group', jid: '1@g.us' }, { type: 'text', text: 'x' }))).code).toBe('PLATFORM_TIMEOUT')
  })

  it('a status to many contacts uploads once and relays batches of 500 under one id', async () => {
    const contacts = Array.from({ length: 1200 }, (_, i) => ({ id: `55${1000000 + i}@s.whatsapp.net`, name: `c${i}` }))
    const h = await harness({ contacts })
    h.sock.open()
    h.sock.onQuery = node => (node.attrs.xmlns === 'status'
      ? { tag: 'iq', attrs: {}, content: [{ tag: 'privacy', attrs: {}, content: [{ tag: 'list', attrs: { type: 'contacts', default: 'true' } }] }] }
      : undefined)
    const { statusId } = await h.link.postStatus({ type: 'image', image: { url: `${base}/p.jpg`, mimetype: 'image/jpeg' }, text: 'hello' })
    expect(h.sock.uploads).toBe(1)
    expect(h.sock.relayed.map(r => r.opts.statusJidList?.length)).toEqual([500, 500, 201])
    expect(new Set(h.sock.relayed.map(r => r.opts.messageId))).toEqual(new Set([statusId]))
    expect(h.sock.relayed.every(r => r.jid === 'status@broadcast')).toBe(true)
    expect(h.sock.relayed[2]?.opts.statusJidList).toContain('5500000000000@s.whatsapp.net')
    const image = (h.sock.relayed[0]?.message as proto.IMessage).imageMessage
    expect(image?.caption).toBe('hello')
    expect(image?.mimetype).toBe('image/jpeg')
  })

  it('a text status has the dark green background', async () => {
    const h = await harness({ contacts: [{ id: '5511@s.whatsapp.net', name: 'A' }] })
    h.sock.open()
    h.sock.onQuery = () => ({ tag: 'iq', attrs: {}, content: [] })
    await h.link.postStatus({ type: 'text', text: 'hey' })
    const text = (h.sock.relayed[0]?.message as proto.IMessage).extendedTextMessage
    expect(text?.text).toBe('hey')
    expect(text?.backgroundArgb).toBe(0xff075e54)
    expect(h.sock.relayed[0]?.opts.statusJidList).toEqual(['5511@s.whatsapp.net', '5500000000000@s.whatsapp.net'])
  })

  it('status privacy errors', async () => {
    const h = await harness()
    h.sock.open()
    h.sock.onQuery = () => ({ tag: 'iq', attrs: {}, content: [] })
    expect((await errorOf(h.link.postStatus({ type: 'text', text: 'x' }))).code).toBe('CONTACTS_NOT_SYNCED')
    h.sock.onQuery = () => ({ tag: 'iq', attrs: {}, content: [{ tag: 'privacy', attrs: {}, content: [{ tag: 'list', attrs: { type: 'whitelist', default: 'true' } }] }] })
    expect((await errorOf(h.link.postStatus({ type: 'text', text: 'x' }))).code).toBe('STATUS_ONLY_SHARE_EMPTY')
    h.sock.onQuery = () => undefined
    expect((await errorOf(h.link.postStatus({ type: 'text', text: 'x' }))).code).toBe('PLATFORM_TIMEOUT')
    expect(h.sock.relayed).toHaveLength(0)
  })

  it('presence goes to the phone JID or group', async () => {
    const h = await harness()
    h.sock.open()
    await h.link.presence({ kind: 'phone', phone: '5511' }, 'recording')
    await h.link.presence({ kind: 'group', jid: '1@g.us' }, 'paused')
    expect(h.sock.presence).toEqual([['recording', '5511@s.whatsapp.net'], ['paused', '1@g.us']])
  })

  it('typing to a phone goes to the same address as messages: the LID when one is known', async () => {
    const h = await harness()
    h.sock.open()
    h.sock.lidByPn.set('5511999990000@s.whatsapp.net', '777@lid')
    await h.link.presence({ kind: 'phone', phone: '5511999990000' }, 'composing')
    expect(h.sock.presence).toEqual([['composing', '777@lid']])
  })

  it('a socket that closes under a typing update answers session not connected, not a 500', async () => {
    const h = await harness()
    h.sock.open()
    h.sock.sendPresenceUpdate = async () => { throw Object.assign(new Error('Connection Closed'), { output: { statusCode: 428 } }) }
    await expect(h.link.presence({ kind: 'phone', phone: '5511' }, 'composing')).rejects.toMatchObject({ code: 'SESSION_NOT_CONNECTED' })
  })
})

describe('baileys link: groups and channels', () => {
  it('lists groups with pictures fetched once per TTL', async () => {
    const h = await harness()
    h.sock.open()
    h.sock.groups = {
      '1@g.us': { id: '1@g.us', subject: 'One', creation: 1_700_000_000, participants: [] },
      'nopic@g.us': { id: 'nopic@g.us', subject: 'Two', participants: [] },
    }
    const first = await h.link.listGroups()
    expect(first).toEqual([
      { id: '1@g.us', name: 'One', description: '', picture: 'https://pps.test/1.jpg', created: new Date(1_700_000_000_000).toISOString() },
      { id: 'nopic@g.us', name: 'Two', description: '', picture: '', created: null },
    ])
    await h.link.listGroups()
    expect(h.sock.pictureCalls.sort()).toEqual(['1@g.us', 'nopic@g.us'])
    expect((await errorOf(h.link.getGroup('404@g.us'))).code).toBe('GROUP_NOT_FOUND')
  })

  it('group members use the stored address book', async () => {
    const h = await harness({ contacts: [{ id: '5511@s.whatsapp.net', name: 'Ana' }] })
    h.sock.open()
    h.sock.groups = { '1@g.us': { id: '1@g.us', subject: 'One', participants: [{ id: '5511@s.whatsapp.net' }, { id: '9@lid' }] } }
    expect(await h.link.groupMembers('1@g.us')).toEqual([
      { id: '5511@s.whatsapp.net', name: 'Ana', phone: '5511' }, { id: '9@lid', name: '', phone: '' },
    ])
  })

  const mexAnswer = (data: unknown): BinaryNode =>
    ({ tag: 'iq', attrs: {}, content: [{ tag: 'result', attrs: {}, content: Buffer.from(JSON.stringify({ data })) }] })

  it('channel history: metadata for the invite, raw messages IQ with before, mapped page', async () => {
    const h = await harness()
    h.sock.open()
    const asked: BinaryNode[] = []
    h.sock.onQuery = node => {
      asked.push(node)
      if (node.attrs.xmlns === 'w:mex') {
        const vars = JSON.parse(String((node.content as BinaryNode[])[0]?.content)).variables
        return mexAnswer({ xwa2_newsletter: vars.input.key === '1@newsletter' ? { id: '1@newsletter', thread_metadata: { invite: 'INV' } } : null })
      }
      const msg = (serverId: number, m: proto.IMessage): BinaryNode => ({
        tag: 'message', attrs: { id: `M${serverId}`, server_id: String(serverId), t: '1790000000', type: 'text' },
        content: [{ tag: 'plaintext', attrs: {}, content: proto.Message.encode(proto.Message.fromObject(m)).finish() }],
      })
      return { tag: 'iq', attrs: {}, content: [{ tag: 'messages', attrs: {}, content: [msg(10, { conversation: 'old' }), msg(11, { conversation: 'new' })] }] }
    }
    const page = await h.link.channelMessages('1@newsletter', 50)
    expect(page.before).toBe(0)
    expect(page.docs.map(d => [d.serverId, d.text, d.url])).toEqual([
      [11, 'new', 'https://whatsapp.com/channel/INV/11'], [10, 'old', 'https://whatsapp.com/channel/INV/10'],
    ])
    const messagesIq = asked.find(n => n.attrs.xmlns === 'newsletter')
    expect((messagesIq?.content as BinaryNode[])[0]?.attrs).toEqual({ type: 'jid', jid: '1@newsletter', count: '100', before: '50' })
    expect((await errorOf(h.link.channelMessages('2@newsletter'))).code).toBe('CHANNEL_NOT_FOUND')
  })

  it('lists channels from the configured mex query; no answer is a timeout', async () => {
    const h = await harness({ env: { CHANNEL_LIST_QUERY_ID: '42' } })
    h.sock.open()
    h.sock.onQuery = node => {
      const q = (node.content as BinaryNode[])[0]
      if (q?.attrs.query_id !== '42') return undefined
      return mexAnswer({ xwa2_newsletter_subscribed: [
        { id: '1@newsletter', thread_metadata: { name: { text: 'Mine' }, creation_time: '100' }, viewer_metadata: { role: 'OWNER' } },
      ] })
    }
    expect(await h.link.listChannels()).toEqual([
      { id: '1@newsletter', name: 'Mine', picture: '', isOwner: true, created: new Date(100_000).toISOString() },
    ])
    h.sock.onQuery = () => undefined
    expect((await errorOf(h.link.listChannels())).code).toBe('PLATFORM_TIMEOUT')
  })

  it('own picture, and empty when there is none', async () => {
    const h = await harness()
    h.sock.open()
    expect(await h.link.ownPicture()).toBe('https://pps.test/5500000000000.jpg')
    h.sock.open({ id: 'nopic:1@s.whatsapp.net', lid: '1@lid' })
    expect(await h.link.ownPicture()).toBe('')
  })
})

describe('baileys link: socket ends during a send', () => {
  it('a pending send fails at once, saying it may have been delivered', async () => {
    const h = await harness({ env: { ACK_TIMEOUT_MS: '60000' } })
    h.sock.open()
    h.sock.ackAttrs = null
    const pending = errorOf(h.link.sendMessage({ kind: 'group', jid: '1@g.us' }, { type: 'text', text: 'x' }))
    await waitFor('send', () => h.sock.sent.length > 0 || undefined, 5_000, 10)
    void h.sock.end(Object.assign(new Error('Connection Closed'), { output: { statusCode: 428 } }))
    expect((await pending).code).toBe('PLATFORM_CONNECTION_LOST')
    await waitFor('close', () => closeEvents(h).length > 0, 5_000, 10)
    expect(closeEvents(h)[0]?.[1]).toBe('connection-lost')
  })
})
