/**
 * POST /status end to end: the real gateway process posts statuses through the unmodified Baileys client to the
 * sandbox, whose simulated phones decrypt them. Checks who received each status and who did not, for every status
 * privacy setting; what the status looks like (background, compressed image, video thumbnail taken from the video);
 * the spec's two 500s; and address books that survive a restart. Large address books: status-batching.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  launchGateway,
  mediaServer,
  pair,
  reply,
  sandboxCall,
  sha256hex,
  withSession,
} from '../../support/system/harness.js'
import { pairedGateway } from '../../support/system/paired-gateway.js'
import { blueVideo, largePhoto } from '../../support/system/status-media.js'
import { ffmpegTests } from '../../support/ffmpeg.js'
import {
  holders,
  NOT_SYNCED,
  ONLY_SHARE_EMPTY,
  postStatusWhenSynced,
  setStatusPrivacy,
  uploads,
  waitForStatus,
} from '../../support/system/status.js'
import { waitFor } from '../../support/wait-for.js'

const ALICE = '15551110001' // the sender: address book Bob, Carol, Dave
const BOB = '15551110002'
const CAROL = '15551110003'
const DAVE = '15551110004'
const ERIN = '15551110005' // on the platform, not in Alice's address book
const FRANK = '15551110006' // never syncs his address book

const DARK_GREEN = '#075E54'

describe('POST /status through the sandbox', () => {
  const knowsAlice = [{ phone: ALICE, name: 'Alice' }]
  const paired = pairedGateway(ALICE, {
    world: {
      accounts: [
        {
          phone: ALICE,
          name: 'Alice',
          syncContacts: true,
          statusPrivacy: { setting: 'contacts', list: [] },
          contacts: [
            { phone: BOB, name: 'Bob' },
            { phone: CAROL, name: 'Carol' },
            { phone: DAVE, name: 'Dave' },
          ],
        },
        { phone: BOB, name: 'Bob', contacts: knowsAlice },
        { phone: CAROL, name: 'Carol', contacts: knowsAlice },
        { phone: DAVE, name: 'Dave', contacts: knowsAlice },
        { phone: ERIN, name: 'Erin', contacts: knowsAlice },
        {
          phone: FRANK,
          name: 'Frank',
          syncContacts: false,
          contacts: [{ phone: BOB, name: 'Bob' }],
          statusPrivacy: { setting: 'contacts', list: [] },
        },
      ],
    },
  })
  let media: Awaited<ReturnType<typeof mediaServer>>
  let photo: Buffer
  let video: Buffer

  beforeAll(async () => {
    ;[photo, video] = await Promise.all([largePhoto(), blueVideo()])
    media = await mediaServer({
      '/photo.jpg': { body: photo, type: 'image/jpeg' },
      '/blue.mp4': { body: video, type: 'video/mp4' },
    })
  })

  afterAll(async () => {
    await media?.close()
  })

  const url = () => paired.sandbox.url

  it('"my contacts": a text status with a dark green background reaches every synced contact and the own phone, nobody else', async () => {
    const posted = await postStatusWhenSynced(paired.gw, paired.session, { type: 'text', text: 'hello contacts' })
    expect(posted.status).toBe(200)
    expect(Object.keys(posted.body)).toEqual(['statusId'])
    const id: string = posted.body.statusId
    const got = await waitForStatus(url(), [BOB, CAROL, DAVE, ALICE], id)
    for (const phone of [BOB, CAROL, DAVE]) {
      expect(got.get(phone)).toMatchObject({
        chat: 'status@broadcast',
        status: true,
        from: ALICE,
        type: 'text',
        text: 'hello contacts',
        backgroundColor: DARK_GREEN,
        visible: true,
      })
    }
    expect(got.get(ALICE)).toMatchObject({
      chat: 'status@broadcast',
      status: true,
      from: ALICE,
      text: 'hello contacts',
    })
    // everyone who got it has arrived: a non-contact and an unrelated account did not
    expect(await holders(url(), [ERIN, FRANK], id)).toEqual([])
  }, 90_000)

  it('"my contacts except": an image status skips the excluded contact and is compressed to suit a status', async () => {
    await setStatusPrivacy(url(), ALICE, 'contacts_except', [CAROL])
    const posted = await reply(
      paired.gw.api.POST(
        '/status',
        withSession(paired.session, {
          body: {
            type: 'image',
            text: 'a big photo',
            image: { url: `${media.base}/photo.jpg`, mimetype: 'image/jpeg' },
          },
        }),
      ),
    )
    expect(posted.status).toBe(200)
    const id: string = posted.body.statusId
    const got = await waitForStatus(url(), [BOB, DAVE, ALICE], id)
    expect(await holders(url(), [CAROL, ERIN], id)).toEqual([])

    const bob = got.get(BOB)
    expect(bob).toMatchObject({ type: 'image', caption: 'a big photo', status: true, from: ALICE })
    expect(bob.error).toBeUndefined()
    expect(bob.media.mimetype).toBe('image/jpeg')
    // recompressed: smaller than the 4000x3000 original, inside 1080x1920, aspect ratio kept
    expect(bob.media.size).toBeLessThan(photo.length / 4)
    expect(bob.media.sha256).not.toBe(sha256hex(photo))
    expect(bob.media.width).toBeLessThanOrEqual(1080)
    expect(bob.media.height).toBeLessThanOrEqual(1920)
    expect(bob.media.width).toBeGreaterThanOrEqual(720) // still a status-sized picture, not a thumbnail
    expect(bob.media.width / bob.media.height).toBeCloseTo(4000 / 3000, 1)
    expect(bob.media.hasThumbnail).toBe(true)
    // every recipient decrypted the same bytes
    expect(got.get(DAVE).media.sha256).toBe(bob.media.sha256)
  }, 90_000)

  ffmpegTests.it(
    '"only share with": a video status reaches only the listed contact, with a thumbnail taken from the video',
    async () => {
      await setStatusPrivacy(url(), ALICE, 'only_share_with', [DAVE])
      const posted = await reply(
        paired.gw.api.POST(
          '/status',
          withSession(paired.session, {
            body: {
              type: 'video',
              text: 'blue',
              video: { url: `${media.base}/blue.mp4`, mimetype: 'video/mp4', duration: 2 },
            },
          }),
        ),
      )
      expect(posted.status).toBe(200)
      const id: string = posted.body.statusId
      const got = await waitForStatus(url(), [DAVE, ALICE], id)
      expect(await holders(url(), [BOB, CAROL, ERIN], id)).toEqual([])

      const dave = got.get(DAVE)
      expect(dave).toMatchObject({ type: 'video', caption: 'blue', status: true, from: ALICE })
      expect(dave.error).toBeUndefined()
      expect(dave.media.sha256).toBe(sha256hex(video))
      expect(dave.media.seconds).toBe(2)
      expect(dave.media.hasThumbnail).toBe(true)
      // the frame of a solid blue video is blue; the generic default thumbnail is grey
      const [r, g, b] = dave.media.thumbnailMeanColor as number[]
      expect(b).toBeGreaterThan(180)
      expect(r).toBeLessThan(80)
      expect(g).toBeLessThan(80)
      // 320x240 video → a landscape thumbnail
      expect(dave.media.thumbnailWidth).toBeGreaterThan(dave.media.thumbnailHeight)
    },
    90_000,
  )

  it('privacy lists that name members by LID (LID-migrated phones) pick the same recipients', async () => {
    await setStatusPrivacy(url(), ALICE, 'contacts_except', [CAROL], 'lid')
    const except = await reply(
      paired.gw.api.POST('/status', withSession(paired.session, { body: { type: 'text', text: 'not for Carol' } })),
    )
    expect(except.status).toBe(200)
    await waitForStatus(url(), [BOB, DAVE, ALICE], except.body.statusId)
    expect(await holders(url(), [CAROL, ERIN], except.body.statusId)).toEqual([])

    await setStatusPrivacy(url(), ALICE, 'only_share_with', [BOB], 'lid')
    const only = await reply(
      paired.gw.api.POST('/status', withSession(paired.session, { body: { type: 'text', text: 'just Bob' } })),
    )
    expect(only.status).toBe(200)
    await waitForStatus(url(), [BOB, ALICE], only.body.statusId)
    expect(await holders(url(), [CAROL, DAVE, ERIN], only.body.statusId)).toEqual([])
  }, 90_000)

  it('"only share with" an empty list answers the exact 500 and sends nothing', async () => {
    await setStatusPrivacy(url(), ALICE, 'only_share_with', [])
    const before = await uploads(url())
    const posted = await reply(
      paired.gw.api.POST('/status', withSession(paired.session, { body: { type: 'text', text: 'nobody' } })),
    )
    expect(posted).toEqual({ status: 500, body: { statusCode: 500, message: ONLY_SHARE_EMPTY } })
    expect(await uploads(url())).toBe(before)
  }, 60_000)

  it('an account whose address book never synced answers the exact 500 under "my contacts"', async () => {
    const frank = await paired.gw.createSession()
    await pair(paired.gw, url(), frank, FRANK)
    const posted = await reply(
      paired.gw.api.POST('/status', withSession(frank, { body: { type: 'text', text: 'anyone?' } })),
    )
    expect(posted).toEqual({ status: 500, body: { statusCode: 500, message: NOT_SYNCED } })
    // "only share with" does not need the address book
    await setStatusPrivacy(url(), FRANK, 'only_share_with', [BOB])
    const shared = await reply(
      paired.gw.api.POST('/status', withSession(frank, { body: { type: 'text', text: 'just Bob' } })),
    )
    expect(shared.status).toBe(200)
    await waitForStatus(url(), [BOB], shared.body.statusId)
    await reply(paired.gw.api.DELETE('/session', withSession(frank)))
  }, 90_000)

  it('synced contacts survive a gateway restart even when the phone no longer syncs them', async () => {
    await setStatusPrivacy(url(), ALICE, 'contacts')
    expect(await paired.gw.proc.stop('SIGTERM')).toBe(0)
    const r = await sandboxCall(url(), 'POST', '/world', { accounts: [{ phone: ALICE, syncContacts: false }] })
    expect(r.status).toBe(200)
    paired.gw = await launchGateway(url(), paired.dataDir)
    await waitFor(
      'Alice reconnected after restart',
      async () => {
        const s = await paired.gw.session(paired.session)
        return s.status === 200 && s.body.isConnected ? true : undefined
      },
      90_000,
    )
    const posted = await reply(
      paired.gw.api.POST('/status', withSession(paired.session, { body: { type: 'text', text: 'after restart' } })),
    )
    expect(posted.status).toBe(200)
    const got = await waitForStatus(url(), [BOB, CAROL, DAVE, ALICE], posted.body.statusId)
    expect(got.get(BOB)).toMatchObject({ text: 'after restart', backgroundColor: DARK_GREEN })
    expect(await holders(url(), [ERIN], posted.body.statusId)).toEqual([])
  }, 150_000)
})
