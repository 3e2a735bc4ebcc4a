/**
 * MEDIA_MAX_PIXELS through the real gateway (docs/operating.md: Limits): a decompression bomb, an 18 KB PNG declaring
 * 15,000 × 10,000 pixels, sent as an image message or a status image is answered 400 in the spec's shape, naming
 * the limit and the size, and nothing reaches the recipient; sent as a thumbnail URL, the image goes out with a
 * preview made from the photo. The gateway keeps serving the session throughout.
 */
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pngBomb } from '../../support/png-bomb.js'
import { inbox, mediaServer, sha256hex } from '../../support/system/harness.js'
import { pairedGateway } from '../../support/system/paired-gateway.js'
import { postStatusWhenSynced } from '../../support/system/status.js'
import { waitFor } from '../../support/wait-for.js'

const ALICE = '15552220001'
const BOB = '15552220002'
const REFUSAL = {
  statusCode: 400,
  message: 'image is larger than the limit of 100000000 pixels (15000 x 10000)',
}

describe('an image over MEDIA_MAX_PIXELS', () => {
  const paired = pairedGateway(ALICE, {
    world: {
      accounts: [
        { phone: ALICE, name: 'Alice', syncContacts: true, contacts: [{ phone: BOB, name: 'Bob' }] },
        { phone: BOB, name: 'Bob', contacts: [{ phone: ALICE, name: 'Alice' }] },
      ],
    },
  })
  let media: Awaited<ReturnType<typeof mediaServer>>
  let photo: Buffer
  beforeAll(async () => {
    photo = await sharp({ create: { width: 320, height: 240, channels: 3, background: '#0000ff' } })
      .jpeg()
      .toBuffer()
    media = await mediaServer({
      '/bomb.png': { body: pngBomb(15_000, 10_000), type: 'image/png' },
      '/photo.jpg': { body: photo, type: 'image/jpeg' },
    })
  })
  afterAll(() => media?.close())

  it('as an image message: 400 naming the limit and the size; nothing is sent', async () => {
    const before = (await inbox(paired.sandbox.url, BOB)).length
    const r = await paired.gw.call('POST', '/message', paired.session, {
      phone: BOB,
      type: 'image',
      image: { url: `${media.base}/bomb.png`, mimetype: 'image/png' },
    })
    expect(r).toEqual({ status: 400, body: REFUSAL })
    expect((await paired.gw.session(paired.session)).body.isConnected).toBe(true)
    expect((await inbox(paired.sandbox.url, BOB)).length).toBe(before)
  })

  it('as a status image: the same 400', async () => {
    const r = await postStatusWhenSynced(paired.gw, paired.session, {
      type: 'image',
      image: { url: `${media.base}/bomb.png`, mimetype: 'image/png' },
    })
    expect({ status: r.status, body: r.body }).toEqual({ status: 400, body: REFUSAL })
  })

  it('as a thumbnail URL: the image goes, with a preview made from the photo', async () => {
    const r = await paired.gw.call('POST', '/message', paired.session, {
      phone: BOB,
      type: 'image',
      image: { url: `${media.base}/photo.jpg`, mimetype: 'image/jpeg', thumbnail: `${media.base}/bomb.png` },
    })
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    const got = await waitFor(
      'the image at Bob',
      async () => (await inbox(paired.sandbox.url, BOB)).find(m => m.id === r.body.messageId),
      60_000,
    )
    // the photo's 4:3 shape, not the bomb's 3:2
    expect(got.media).toMatchObject({
      sha256: sha256hex(photo),
      hasThumbnail: true,
      thumbnailWidth: 72,
      thumbnailHeight: 54,
    })
  })
})
