/**
 * POST /message end to end, over HTTP only: the real gateway process sends every message type to a phone and to a
 * group (one member known only by LID), and the sandbox's simulated phones decrypt what arrived (GET
 * /accounts/{phone}/inbox). Also the refusals: an unknown group, a recipient the platform rejects, an ack that never
 * comes. To a channel: ./channel-messages.test.ts.
 */
import { describe, expect, it } from 'vitest'
import { ffmpegTests } from '../../support/ffmpeg.js'
import { inbox, sandboxCall } from '../../support/system/harness.js'
import {
  ACK_TIMEOUT_MS,
  ALICE,
  BOB,
  CAROL,
  cases,
  FOREIGN_GROUP,
  GROUP,
  messagesWorld,
  OWN_CHANNEL,
  testOf,
} from '../../support/system/messages-world.js'

describe('POST /message end to end', () => {
  const world = messagesWorld()
  const { sandbox, send, received } = world

  describe('to a phone', () => {
    for (const c of cases()) {
      testOf(c)(
        `${c.type}: the recipient decrypts exactly what was sent`,
        async () => {
          const sent = await send({ phone: `+${BOB}`, ...c.body(world.media().base) })
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
          image: { url: `${world.media().base}/photo.jpg`, mimetype: 'image/jpeg' },
        })
        const video = await send({
          phone: BOB,
          type: 'video',
          video: { url: `${world.media().base}/clip.mp4`, mimetype: 'video/mp4', duration: 2 },
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
          const sent = await send({ group: GROUP, ...c.body(world.media().base) })
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
              .body(world.media().base),
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
