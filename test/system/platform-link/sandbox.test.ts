/**
 * The real link (real Baileys) against the project's loopback sandbox: pairing, reconnect, sends with server acks,
 * status, groups, channels list, and the close reasons the actor depends on.
 * Not covered here because the sandbox does not serve them yet: channel history (the sandbox reads the channel from
 * the iq `to`, the link addresses s.whatsapp.net as whatsmeow does) and channel media uploads (/newsletter/…).
 */
import type http from 'node:http'
import pino from 'pino'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { loadSettings } from '../../../src/gateway-settings.js'
import { createBaileysLink } from '../../../src/platform/baileys/baileys-link.js'
import type { CloseReason, PlatformLink } from '../../../src/platform/link.js'
import { fetchSandboxTrust } from '../../../src/platform/baileys/sandbox-trust.js'
import type { SandboxTrust } from '../../../src/platform/link.js'
import { createSandbox, type Sandbox } from '../../../src/sandbox/index.js'
import type { GatewayError } from '../../../src/protocol/errors.js'
import { removeMediaTempDirs } from '../../../src/media/temp-dir.js'
import { memoryAuthStore, memoryContactStore } from '../../support/fakes/memory-stores.js'
import { type OnLoopback, serveFiles } from '../../support/loopback-server.js'
import { ALICE, BOB, CHANNEL, GROUP, teamWorld } from '../../support/system/sandbox-world.js'
import { waitFor } from '../../support/wait-for.js'

type Event = [string, ...unknown[]]

let sandbox: Sandbox
let trust: SandboxTrust
let media: OnLoopback<http.Server> | undefined
let mediaUrl: string
const auth = memoryAuthStore()
const contacts = memoryContactStore()
const settings = loadSettings({ MEDIA_ALLOW_PRIVATE_URLS: 'true', ACK_TIMEOUT_MS: '15000', QUERY_TIMEOUT_MS: '15000' })

function startLink(): { link: PlatformLink; events: Event[]; next(kind: string): Promise<Event> } {
  const events: Event[] = []
  const link = createBaileysLink({
    id: 'alice',
    auth,
    contacts,
    settings,
    sandbox: trust,
    logger: pino({ level: process.env.LINK_LOG ?? 'silent' }),
    events: {
      qr: qr => events.push(['qr', qr]),
      paired: me => events.push(['paired', me]),
      open: me => events.push(['open', me]),
      name: name => events.push(['name', name]),
      close: (reason: CloseReason, detail) => events.push(['close', reason, detail]),
      restrictions: update => events.push(['restrictions', update]),
      conversations: phones => events.push(['conversations', phones]),
    },
  })
  const next = (kind: string): Promise<Event> =>
    waitFor(`a ${kind} event`, () => events.find(e => e[0] === kind), 30_000, 50).catch(() => {
      throw new Error(`no ${kind} event; saw ${JSON.stringify(events.map(e => e[0]))}`)
    })
  return { link, events, next }
}

const post = async (path: string, body: unknown) =>
  (
    await fetch(`${sandbox.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
  ).json()
const inbox = async (phone: string) =>
  (
    (await (await fetch(`${sandbox.url}/accounts/${phone}/inbox`)).json()) as {
      messages: Array<Record<string, unknown>>
    }
  ).messages
const errorOf = async (p: Promise<unknown>) =>
  (await p.then(
    () => undefined,
    (e: unknown) => e,
  )) as GatewayError

let current: ReturnType<typeof startLink>

beforeAll(async () => {
  vi.spyOn(console, 'info').mockImplementation(() => undefined) // libsignal prints every session it closes
  vi.spyOn(console, 'warn').mockImplementation(() => undefined)
  sandbox = await createSandbox({
    port: 0,
    world: teamWorld([{ type: 'text', text: 'hello' }]),
  } as Parameters<typeof createSandbox>[0])
  trust = await fetchSandboxTrust(sandbox.url)
  const jpeg = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#884422' } })
    .jpeg()
    .toBuffer()
  media = await serveFiles({ '/a.jpg': { body: jpeg, type: 'image/jpeg' } })
  mediaUrl = media.url
})

afterAll(async () => {
  await current?.link.close()
  await media?.close()
  await sandbox?.close()
  await removeMediaTempDirs()
  vi.restoreAllMocks()
})

describe('baileys link against the sandbox', () => {
  it('QR → scan → paired → 515 restart-required; the next link opens with the persisted creds', async () => {
    const first = startLink()
    const [, qr] = await first.next('qr')
    await post('/scan', { qr, phone: ALICE })
    expect((await first.next('paired'))[1]).toMatchObject({
      id: expect.stringMatching(/^15550000001:\d+@s\.whatsapp\.net$/),
    })
    expect((await first.next('close'))[1]).toBe('restart-required')
    expect(auth.hasCreds()).toBe(true)
    current = startLink()
    expect((await current.next('open'))[1]).toMatchObject({ name: 'Alice' })
    expect(current.events.some(e => e[0] === 'qr')).toBe(false)
  })

  it('stores the synced address book', async () => {
    await waitFor('the synced address book', () => contacts.rows.some(c => c.name === 'Bob Builder'), 15_000, 50)
    expect(contacts.rows.map(c => c.name).sort()).toEqual(['Bob Builder', 'Carol'])
  })

  it('sends text and an image; the recipient phone decrypts them', async () => {
    const text = await current.link.sendMessage({ kind: 'phone', phone: BOB }, { type: 'text', text: 'hello bob' })
    const image = await current.link.sendMessage(
      { kind: 'phone', phone: BOB },
      { type: 'image', image: { url: `${mediaUrl}/a.jpg`, mimetype: 'image/jpeg' }, text: 'cap' },
    )
    // the simulated phone fetches and decrypts media after acking
    const got = await waitFor(
      'the image on Bob phone',
      async () => {
        const all = await inbox(BOB)
        return all.some(m => m.id === image.messageId) && all
      },
      15_000,
      50,
    )
    expect(got.find(m => m.id === text.messageId)).toMatchObject({ type: 'text', text: 'hello bob' })
    expect(got.find(m => m.id === image.messageId)).toMatchObject({
      type: 'image',
      caption: 'cap',
      media: { mimetype: 'image/jpeg', hasThumbnail: true },
    })
  })

  it('a media URL that fails gives the spec message and sends nothing', async () => {
    const before = (await inbox(BOB)).length
    const err = await errorOf(
      current.link.sendMessage(
        { kind: 'phone', phone: BOB },
        { type: 'image', image: { url: `${mediaUrl}/nope.jpg`, mimetype: 'image/jpeg' } },
      ),
    )
    expect(err.message).toBe('error parser file from url 404 Not Found')
    expect((await inbox(BOB)).length).toBe(before)
  })

  it('a server nack becomes PLATFORM_REJECTED with the code', async () => {
    await post('/faults', { rejectRecipient: BOB, rejectCode: 463 })
    try {
      const err = await errorOf(current.link.sendMessage({ kind: 'phone', phone: BOB }, { type: 'text', text: 'x' }))
      expect([err.code, err.message]).toEqual(['PLATFORM_REJECTED', 'the platform rejected the message (error 463)'])
    } finally {
      await fetch(`${sandbox.url}/faults`, { method: 'DELETE' })
    }
  })

  it('posts a status, reads groups, members and channels', async () => {
    const { statusId } = await current.link.postStatus({ type: 'text', text: 'my status' })
    const status = await waitFor(
      'the status on Bob phone',
      async () => (await inbox(BOB)).find(m => m.id === statusId),
      15_000,
      50,
    )
    expect(status).toMatchObject({ status: true, text: 'my status' }) // Bob is in the address book, not excluded
    expect(await current.link.listGroups()).toEqual([
      { id: GROUP, name: 'Team', description: 'the team', picture: '', created: '2025-01-01T00:00:00.000Z' },
    ])
    expect((await errorOf(current.link.getGroup('120363999999999999@g.us'))).code).toBe('GROUP_NOT_FOUND')
    const members = await current.link.listGroupMembers(GROUP)
    expect(members.find(m => m.phone === BOB)?.name).toBe('Bob Builder')
    expect(await current.link.listChannels()).toEqual([
      { id: CHANNEL, name: 'News', picture: '', isOwner: true, created: '2025-01-01T00:00:00.000Z' },
    ])
    await current.link.sendMessage({ kind: 'channel', jid: CHANNEL }, { type: 'text', text: 'channel post' })
    const posts = (await (await fetch(`${sandbox.url}/channels/${CHANNEL}/messages`)).json()) as {
      messages: Array<{ text?: string }>
    }
    expect(posts.messages.map(p => p.text)).toContain('channel post')
    expect(await current.link.ownPicture()).toMatch(/^https:\/\/127\.0\.0\.1:\d+\//)
  })

  it('a dropped connection is connection-lost; with an empty contact table the next link resyncs contacts', async () => {
    await post('/faults', { dropSessionOf: ALICE })
    expect((await current.next('close'))[1]).toBe('connection-lost')
    await contacts.clear()
    current = startLink()
    await current.next('open')
    await waitFor('the resynced address book', () => contacts.rows.length >= 2, 15_000, 50)
    expect(contacts.rows.map(c => c.name).sort()).toEqual(['Bob Builder', 'Carol'])
  })

  it('an unlinked device is logged-out', async () => {
    await post('/faults', { logoutDeviceOf: ALICE })
    expect((await current.next('close'))[1]).toBe('logged-out')
  })
})
