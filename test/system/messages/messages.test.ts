/**
 * POST /message end to end, over HTTP only: the real gateway process sends every message type to a phone, to a group
 * (one member known only by LID) and to a channel the account owns, and the sandbox's simulated phones decrypt what
 * arrived (GET /accounts/{phone}/inbox) or the channel shows it (GET /channels/{id}/messages). Also the refusals:
 * a channel the account does not own, an unknown group, a recipient the platform rejects, an ack that never comes.
 */
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { inbox, mediaServer, reply, sandboxCall, sha256hex, withSession } from '../../support/system/harness.js'
import { pairedGateway } from '../../support/system/paired-gateway.js'
import { makeFixtures, type MessageFixtures } from '../../support/system/messages-media.js'
import { ffmpegTests } from '../../support/ffmpeg.js'
import type { components } from '../../../src/client/index.js'
import { waitFor } from '../../support/wait-for.js'

const ALICE = '15550000001' // the gateway's account
const BOB = '15550000002'
const CAROL = '15550000003' // hides her phone in the group and is moved to LID addressing
const GROUP = '120363000000000301@g.us'
const FOREIGN_GROUP = '120363000000000302@g.us' // exists, but the account is not a member
const OWN_CHANNEL = '120363000000000311@newsletter'
const OTHER_CHANNEL = '120363000000000322@newsletter'
/** Short, so the no-ack test does not take long; the clock starts once the stanza is out, so normal sends fit. */
const ACK_TIMEOUT_MS = 6_000

/** A POST /message body as the typed client knows it (the destination is added per test). */
type Body = components['schemas']['SendMessage']
interface Case {
  type: string
  body(base: string): Body
  /** Checks one decrypted inbox record against what was sent. */
  check(record: any): void
  /** Its media is made with ffmpeg: without one the case is skipped (test/support/ffmpeg.ts). */
  ffmpeg?: true
}

let fx: MessageFixtures

/** Every type with every optional field; `check` compares what the recipient decrypted with what was served. */
const cases = (): Case[] => [
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
const testOf = (c: Case) => (c.ffmpeg ? ffmpegTests.it : it)

describe('POST /message end to end', () => {
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
  let media: Awaited<ReturnType<typeof mediaServer>>
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

  describe('to a phone', () => {
    for (const c of cases()) {
      testOf(c)(
        `${c.type}: the recipient decrypts exactly what was sent`,
        async () => {
          const sent = await send({ phone: `+${BOB}`, ...c.body(media.base) })
          expect(sent.status).toBe(200)
          expect(Object.keys(sent.body)).toEqual(['messageId'])
          const got = await received(BOB, sent.body.messageId)
          expect(got).toMatchObject({ from: ALICE, chat: ALICE, status: false })
          expect(got.error).toBeUndefined()
          c.check(got)
        },
        60_000,
      )
    }

    ffmpegTests.it(
      'generates a thumbnail from the image or video itself when no thumbnail URL is given',
      async () => {
        const image = await send({
          phone: BOB,
          type: 'image',
          image: { url: `${media.base}/photo.jpg`, mimetype: 'image/jpeg' },
        })
        const video = await send({
          phone: BOB,
          type: 'video',
          video: { url: `${media.base}/clip.mp4`, mimetype: 'video/mp4', duration: 2 },
        })
        expect([image.status, video.status]).toEqual([200, 200])
        for (const id of [image.body.messageId, video.body.messageId]) {
          const got = await received(BOB, id)
          expect(got.media.hasThumbnail).toBe(true)
          // both sources are 4:3 (320×240 photo, 160×120 video): the thumbnail keeps that shape
          expect(got.media.thumbnailWidth / got.media.thumbnailHeight).toBeCloseTo(4 / 3, 1)
        }
      },
      60_000,
    )

    it("addresses the contact's @lid, so an account moved to LID addressing still receives it", async () => {
      const sent = await send({ phone: CAROL, type: 'text', text: 'for Carol, by LID' })
      expect(sent.status).toBe(200)
      const got = await received(CAROL, sent.body.messageId)
      expect(got).toMatchObject({ type: 'text', text: 'for Carol, by LID', from: ALICE })
      const { lid } = (await sandboxCall(sandbox(), 'GET', `/accounts/${CAROL}/lid`)).body
      expect(lid).toMatch(/@lid$/)
      expect(got.to).toBe(lid)
    }, 60_000)
  })

  describe('to a group', () => {
    for (const c of cases()) {
      testOf(c)(
        `${c.type}: every participant decrypts it, the LID-only member too`,
        async () => {
          const sent = await send({ group: GROUP, ...c.body(media.base) })
          expect(sent.status).toBe(200)
          for (const member of [BOB, CAROL]) {
            const got = await received(member, sent.body.messageId)
            expect(got).toMatchObject({ from: ALICE, chat: GROUP })
            expect(got.error).toBeUndefined()
            c.check(got)
          }
        },
        90_000,
      )
    }

    it('refuses an unknown group, or one the account is not in, with a clear error and delivers nothing', async () => {
      const before = (await inbox(sandbox(), BOB)).length
      for (const group of ['120363999999999999@g.us', FOREIGN_GROUP]) {
        const sent = await send({ group, type: 'text', text: 'nobody home' })
        expect(sent).toEqual({ status: 500, body: { statusCode: 500, message: 'group not found' } })
      }
      expect((await inbox(sandbox(), BOB)).length).toBe(before)
    }, 60_000)
  })

  describe('to a channel', () => {
    const postable = cases().filter(c => !['location', 'contact'].includes(c.type))
    const expected: Record<string, (p: any) => void> = {
      text: p => expect(p).toMatchObject({ type: 'text', text: 'hello there 👋\nsecond line' }),
      image: p =>
        expect(p).toMatchObject({
          type: 'image',
          caption: 'a red square',
          media: { mimetype: 'image/jpeg', sha256: sha256hex(fx.photo.body) },
        }),
      video: p =>
        expect(p).toMatchObject({
          type: 'video',
          caption: 'test pattern',
          media: { mimetype: 'video/mp4', seconds: 2, sha256: sha256hex(fx.video.body) },
        }),
      audio: p =>
        expect(p).toMatchObject({
          type: 'audio',
          media: { mimetype: 'audio/mpeg', seconds: 2, sha256: sha256hex(fx.audio.body) },
        }),
      document: p =>
        expect(p).toMatchObject({
          type: 'document',
          caption: 'the report',
          media: { mimetype: 'application/pdf', fileName: 'Report Q3.pdf', sha256: sha256hex(fx.pdf.body) },
        }),
    }
    const postIds: Record<string, string> = {}
    for (const c of postable) {
      testOf(c)(
        `${c.type}: appears in the owned channel's history with its media`,
        async () => {
          const sent = await send({ newsletter: OWN_CHANNEL, ...c.body(media.base) })
          expect(sent.status).toBe(200)
          postIds[c.type] = sent.body.messageId
          const post = await waitFor(
            'the channel post',
            async () => (await channelPosts(OWN_CHANNEL)).find(p => p.id === sent.body.messageId),
            60_000,
          )
          expect(post.error).toBeUndefined()
          expected[c.type]!(post)
        },
        60_000,
      )
    }

    // needs the video post above
    ffmpegTests.it(
      'GET /channel/message shows the posts, with the thumbnail given by URL',
      async () => {
        const r = await reply(
          paired.gw.api.GET(
            '/channel/message',
            withSession(paired.session, { params: { query: { channelId: OWN_CHANNEL } } }),
          ),
        )
        expect(r.status).toBe(200)
        const doc = (type: string) => r.body.docs.find((d: any) => d.id === postIds[type])
        expect(doc('text')).toMatchObject({ type: 'text', text: 'hello there 👋\nsecond line' })
        expect(doc('image')).toMatchObject({ type: 'image', text: 'a red square', image: { mimetype: 'image/jpeg' } })
        expect(doc('video')).toMatchObject({
          type: 'video',
          text: 'test pattern',
          video: { mimetype: 'video/mp4', duration: 2 },
        })
        for (const thumb of [doc('image').image.thumbnail, doc('video').video.thumbnail]) {
          // a URL like every other thumbnail of the spec: here the inline JPEG the post carries, as a data: URL
          expect(thumb).toMatch(/^data:image\/jpeg;base64,/)
          const { width, height } = await sharp(
            Buffer.from(thumb.slice('data:image/jpeg;base64,'.length), 'base64'),
          ).metadata()
          expect(height).toBe(width! * 3) // the tall thumbnail URL, not one made from the 4:3 media
        }
      },
      60_000,
    )

    // Whether the live platform takes a location or contact post is unverified: the sandbox takes it by default and
    // refuses it (error 400) under its strictChannelPosts switch. Both answers must reach the client correctly.
    for (const c of cases().filter(k => ['location', 'contact'].includes(k.type))) {
      it(`${c.type}: a channel that takes it carries exactly what was sent; history lists it as unsupported`, async () => {
        expect((await sandboxCall(sandbox(), 'GET', '/faults')).body.faults.strictChannelPosts).toBeUndefined()
        const sent = await send({ newsletter: OWN_CHANNEL, ...c.body(media.base) })
        expect(sent.status).toBe(200)
        const post = await waitFor(
          'the channel post',
          async () => (await channelPosts(OWN_CHANNEL)).find(p => p.id === sent.body.messageId),
          60_000,
        )
        c.check(post)
        const history = await reply(
          paired.gw.api.GET(
            '/channel/message',
            withSession(paired.session, { params: { query: { channelId: OWN_CHANNEL } } }),
          ),
        )
        expect(history.status).toBe(200)
        // the spec's channel message types have no location or contact: "still returned, with type text"
        expect(history.body.docs.find((d: any) => d.id === sent.body.messageId)).toMatchObject({
          type: 'text',
          text: 'UNSUPPORTED TYPE',
        })
      }, 60_000)

      it(`${c.type}: a platform that refuses it (strictChannelPosts) gets the gateway's clear message, nothing posted`, async () => {
        expect(
          (await sandboxCall(sandbox(), 'POST', '/faults', { strictChannelPosts: true })).body.faults
            .strictChannelPosts,
        ).toBe(true)
        try {
          const before = (await channelPosts(OWN_CHANNEL)).length
          const sent = await send({ newsletter: OWN_CHANNEL, ...c.body(media.base) })
          expect(sent).toEqual({
            status: 500,
            body: {
              statusCode: 500,
              message:
                'the platform rejected the message (error 400): channels accept only text, image, video, audio and document posts',
            },
          })
          expect((await channelPosts(OWN_CHANNEL)).length).toBe(before)
          // the switch refuses only what the official apps cannot post: text still goes through
          expect((await send({ newsletter: OWN_CHANNEL, type: 'text', text: 'still postable' })).status).toBe(200)
        } finally {
          await sandboxCall(sandbox(), 'DELETE', '/faults')
        }
      }, 60_000)
    }

    it('refuses a channel the account does not own, text and media alike, and posts nothing', async () => {
      for (const body of [
        { type: 'text', text: 'not mine' } satisfies Body,
        cases()
          .find(c => c.type === 'image')!
          .body(media.base),
      ]) {
        const sent = await send({ newsletter: OTHER_CHANNEL, ...body })
        expect(sent).toEqual({
          status: 500,
          body: { statusCode: 500, message: 'channel not owned or administered by this account' },
        })
      }
      expect(await channelPosts(OTHER_CHANNEL)).toEqual([])
    }, 60_000)

    it('refuses an unknown channel as not found', async () => {
      const sent = await send({ newsletter: '120363999999999998@newsletter', type: 'text', text: 'into the void' })
      expect(sent).toEqual({ status: 500, body: { statusCode: 500, message: 'channel not found' } })
    }, 60_000)
  })

  describe('platform refusals', () => {
    it('a recipient the platform rejects is a 500 with the rejection, and nothing arrives', async () => {
      await sandboxCall(sandbox(), 'POST', '/faults', { rejectRecipient: BOB, rejectCode: 463 })
      try {
        const sent = await send({ phone: BOB, type: 'text', text: 'should bounce' })
        expect(sent).toEqual({
          status: 500,
          body: { statusCode: 500, message: 'the platform rejected the message (error 463)' },
        })
        const group = await send({ group: GROUP, type: 'text', text: 'group still fine' })
        expect(group.status).toBe(200)
        await received(CAROL, group.body.messageId)
        expect((await inbox(sandbox(), BOB)).filter(m => m.text === 'should bounce')).toEqual([])
      } finally {
        await sandboxCall(sandbox(), 'DELETE', '/faults')
      }
    }, 60_000)

    // last: the delayed stanzas queue up on the link for a while after the fault is cleared
    it('no ack within ACK_TIMEOUT_MS is a 500 timeout, not a false success (phone text, channel media)', async () => {
      // every stanza the sandbox sends now waits this long, one after another: the ack comes after the timeout
      await sandboxCall(sandbox(), 'POST', '/faults', { delayMs: ACK_TIMEOUT_MS + 1_500 })
      try {
        // one fault window for both: the channel path waits for its ack on its own (not through Baileys' send)
        const [phone, channel] = await Promise.all([
          send({ phone: BOB, type: 'text', text: 'slow platform' }),
          send({
            newsletter: OWN_CHANNEL,
            ...cases()
              .find(c => c.type === 'document')!
              .body(media.base),
          }),
        ])
        const timeout = { status: 500, body: { statusCode: 500, message: 'the platform did not acknowledge in time' } }
        expect(phone).toEqual(timeout)
        expect(channel).toEqual(timeout)
      } finally {
        await sandboxCall(sandbox(), 'DELETE', '/faults')
      }
    }, 90_000)
  })
})
