/**
 * @module test/support/system/messages-world
 * The world of POST /message's end-to-end tests (test/system/messages/): Alice's gateway paired, Bob and Carol (known
 * only by LID in the group), a group Alice is in and one she is not, a channel she owns and one she follows, a media
 * server with the fixtures; every message type with every optional field (`cases`), each with the check of what
 * the recipient decrypted; and the calls the tests make. `messagesWorld()` registers its own hooks.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { components } from '../../../src/client/index.js'
import { ffmpegTests } from '../ffmpeg.js'
import { waitFor } from '../wait-for.js'
import { inbox, mediaServer, reply, sandboxCall, sha256hex, withSession } from './harness.js'
import { makeFixtures, type MessageFixtures } from './messages-media.js'
import { pairedGateway } from './paired-gateway.js'

export const ALICE = '15550000001' // the gateway's account
export const BOB = '15550000002'
export const CAROL = '15550000003' // hides her phone in the group and is moved to LID addressing
export const GROUP = '120363000000000301@g.us'
export const FOREIGN_GROUP = '120363000000000302@g.us' // exists, but the account is not a member
export const OWN_CHANNEL = '120363000000000311@newsletter'
export const OTHER_CHANNEL = '120363000000000322@newsletter'
/** Short, so the no-ack test does not take long; the clock starts once the stanza is out, so normal sends fit. */
export const ACK_TIMEOUT_MS = 6_000

/** A POST /message body as the typed client knows it (the destination is added per test). */
export type Body = components['schemas']['SendMessage']
export interface Case {
  type: string
  body(base: string): Body
  /** Checks one decrypted inbox record against what was sent. */
  check(record: any): void
  /** Its media is made with ffmpeg: without one the case is skipped (test/support/ffmpeg.ts). */
  ffmpeg?: true
}

let fx: MessageFixtures

/** Every type with every optional field; `check` compares what the recipient decrypted with what was served. */
export const cases = (): Case[] => [
  {
    type: 'text',
    body: () => ({ type: 'text', text: 'hello there 👋\nsecond line' }),
    check: r => expect(r).toMatchObject({ type: 'text', text: 'hello there 👋\nsecond line' }),
  },
  {
    type: 'image',
    body: base => ({
      type: 'image',
      text: 'a red square',
      image: { url: `${base}/photo.jpg`, mimetype: 'image/jpeg', thumbnail: `${base}/tall.jpg` },
    }),
    check: r => {
      expect(r).toMatchObject({
        type: 'image',
        caption: 'a red square',
        media: { mimetype: 'image/jpeg', sha256: sha256hex(fx.photo.body), hasThumbnail: true },
      })
      // the tall thumbnail URL was used: a thumbnail made from the 4:3 photo would be wider than tall
      expect(r.media.thumbnailHeight).toBe(r.media.thumbnailWidth * 3)
    },
  },
  {
    type: 'video',
    ffmpeg: true,
    body: base => ({
      type: 'video',
      text: 'test pattern',
      video: { url: `${base}/clip.mp4`, mimetype: 'video/mp4', duration: 2, thumbnail: `${base}/tall.jpg` },
    }),
    check: r => {
      expect(r).toMatchObject({
        type: 'video',
        caption: 'test pattern',
        media: { mimetype: 'video/mp4', sha256: sha256hex(fx.video.body), seconds: 2, hasThumbnail: true },
      })
      expect(r.media.thumbnailHeight).toBe(r.media.thumbnailWidth * 3)
    },
  },
  {
    type: 'audio',
    ffmpeg: true,
    body: base => ({ type: 'audio', audio: { url: `${base}/tone.mp3`, mimetype: 'audio/mpeg', duration: 2 } }),
    check: r =>
      expect(r).toMatchObject({
        type: 'audio',
        media: { mimetype: 'audio/mpeg', sha256: sha256hex(fx.audio.body), seconds: 2, ptt: false },
      }),
  },
  {
    type: 'document',
    body: base => ({
      type: 'document',
      text: 'the report',
      document: {
        url: `${base}/report.pdf`,
        name: 'Report Q3.pdf',
        size: fx.pdf.body.length,
        mimetype: 'application/pdf',
      },
    }),
    check: r =>
      expect(r).toMatchObject({
        type: 'document',
        caption: 'the report',
        media: {
          mimetype: 'application/pdf',
          fileName: 'Report Q3.pdf',
          sha256: sha256hex(fx.pdf.body),
          size: fx.pdf.body.length,
        },
      }),
  },
  {
    type: 'location',
    body: () => ({
      type: 'location',
      location: { latitude: 52.3702157, longitude: -4.8951679, name: 'Dam Square', address: 'Dam, 1012 Amsterdam' },
    }),
    check: r =>
      expect(r).toMatchObject({
        type: 'location',
        location: { latitude: 52.3702157, longitude: -4.8951679, name: 'Dam Square', address: 'Dam, 1012 Amsterdam' },
      }),
  },
  {
    type: 'contact',
    body: () => ({ type: 'contact', contact: { name: 'Dr. Eve, Jr.', phone: '+44 20 7946 0958' } }),
    check: r => {
      expect(r.type).toBe('contact')
      expect(r.contact.displayName).toBe('Dr. Eve, Jr.')
      const lines: string[] = r.contact.vcard.split(/\r?\n/)
      expect(lines[0]).toBe('BEGIN:VCARD')
      expect(lines.at(-1)).toBe('END:VCARD')
      expect(lines).toContain('VERSION:3.0')
      expect(lines).toContain('FN:Dr. Eve\\, Jr.')
      expect(lines).toContain('TEL;type=CELL;type=VOICE;waid=442079460958:+442079460958')
    },
  },
]

/** `it`, or ffmpegTests.it for a case whose media ffmpeg makes. */
export const testOf = (c: Case) => (c.ffmpeg ? ffmpegTests.it : it)

/** The fixtures, made by the world's beforeAll. */
export const fixtures = (): MessageFixtures => fx

let media: Awaited<ReturnType<typeof mediaServer>>

export function messagesWorld() {
  const paired = pairedGateway(ALICE, {
    world: {
      accounts: [
        { phone: ALICE, name: 'Alice' },
        { phone: BOB, name: 'Bob' },
        { phone: CAROL, name: 'Carol', lidOnly: true },
      ],
      groups: [
        {
          id: GROUP,
          name: 'Sends',
          participants: [{ phone: ALICE, admin: 'superadmin' }, { phone: BOB }, { phone: CAROL, hidePhone: true }],
        },
        { id: FOREIGN_GROUP, name: "Not Alice's", participants: [{ phone: BOB, admin: 'superadmin' }] },
      ],
      channels: [
        { id: OWN_CHANNEL, name: 'Alice news', owner: ALICE, followers: [BOB] },
        { id: OTHER_CHANNEL, name: 'Bob news', owner: BOB, followers: [ALICE] },
      ],
    },
    env: { ACK_TIMEOUT_MS: String(ACK_TIMEOUT_MS) },
    timeoutMs: 180_000,
  })
  const sandbox = () => paired.sandbox.url

  const send = (body: Body) => reply(paired.gw.api.POST('/message', withSession(paired.session, { body })))
  const received = (phone: string, id: string) =>
    waitFor(
      `message ${id} in ${phone}'s inbox`,
      async () => (await inbox(sandbox(), phone)).find(m => m.id === id),
      60_000,
    )
  const channelPosts = async (channel: string): Promise<any[]> =>
    (await sandboxCall(sandbox(), 'GET', `/channels/${channel}/messages`)).body.messages

  beforeAll(async () => {
    fx = await makeFixtures()
    media = await mediaServer({
      '/photo.jpg': fx.photo,
      '/tall.jpg': fx.tallThumb,
      '/clip.mp4': fx.video,
      '/tone.mp3': fx.audio,
      '/report.pdf': fx.pdf,
    })
  })

  afterAll(async () => {
    await sandboxCall(paired.sandbox.url, 'DELETE', '/faults').catch(() => undefined)
    await media?.close()
  })
  return { paired, sandbox, send, received, channelPosts, media: () => media }
}
