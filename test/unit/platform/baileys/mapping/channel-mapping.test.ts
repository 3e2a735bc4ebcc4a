import { proto } from '@whiskeysockets/baileys'
import { describe, expect, it } from 'vitest'
import {
  mapChannel,
  mapChannelBody,
  mapChannelPage,
  UNSUPPORTED_TEXT,
  type ChannelRow,
} from '../../../../../src/platform/baileys/mapping/channel-mapping.js'

const enc = (m: proto.IMessage) => proto.Message.encode(proto.Message.fromObject(m)).finish()
const thumb = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3])

describe('channel message bodies', () => {
  it('text from conversation and extendedTextMessage', () => {
    expect(mapChannelBody(enc({ conversation: 'hi' }))).toEqual({ type: 'text', text: 'hi' })
    expect(mapChannelBody(enc({ extendedTextMessage: { text: 'hello' } }))).toEqual({ type: 'text', text: 'hello' })
  })

  it('image with caption, direct-path url and the inline thumbnail as a data: URL', () => {
    const body = mapChannelBody(
      enc({ imageMessage: { caption: 'pic', directPath: '/v/t62/abc', mimetype: 'image/jpeg', jpegThumbnail: thumb } }),
    )
    expect(body).toEqual({
      type: 'image',
      text: 'pic',
      image: {
        url: 'https://mmg.whatsapp.net/v/t62/abc',
        thumbnail: `data:image/jpeg;base64,${thumb.toString('base64')}`,
        mimetype: 'image/jpeg',
      },
    })
  })

  it('the platform thumbnail path wins over the inline thumbnail', () => {
    const body = mapChannelBody(
      enc({
        imageMessage: {
          directPath: '/v/a',
          thumbnailDirectPath: '/v/t/a',
          mimetype: 'image/jpeg',
          jpegThumbnail: thumb,
        },
      }),
    )
    expect(body.image?.thumbnail).toBe('https://mmg.whatsapp.net/v/t/a')
  })

  it('video with duration; url preferred over direct path; empty thumbnail when none', () => {
    const body = mapChannelBody(
      enc({
        videoMessage: { url: 'https://media.example/v.mp4', directPath: '/x', seconds: 12, mimetype: 'video/mp4' },
      }),
    )
    expect(body).toEqual({
      type: 'video',
      text: '',
      video: { url: 'https://media.example/v.mp4', thumbnail: '', duration: 12, mimetype: 'video/mp4' },
    })
  })

  it('poll (v1 and v3) and sticker', () => {
    const poll = { name: 'Lunch?', options: [{ optionName: 'Yes' }, { optionName: 'No' }], selectableOptionsCount: 1 }
    expect(mapChannelBody(enc({ pollCreationMessage: poll }))).toEqual({
      type: 'poll',
      text: '',
      polling: { name: 'Lunch?', options: ['Yes', 'No'] },
    })
    expect(mapChannelBody(enc({ pollCreationMessageV3: poll }))).toEqual({
      type: 'poll',
      text: '',
      polling: { name: 'Lunch?', options: ['Yes', 'No'] },
    })
    expect(mapChannelBody(enc({ stickerMessage: { directPath: '/s', mimetype: 'image/webp' } }))).toEqual({
      type: 'sticker',
      text: '',
      sticker: { url: 'https://mmg.whatsapp.net/s', mimetype: 'image/webp' },
    })
  })

  it('anything else is UNSUPPORTED TYPE text', () => {
    const unsupported = { type: 'text', text: UNSUPPORTED_TEXT }
    expect(mapChannelBody(enc({ audioMessage: { seconds: 3 } }))).toEqual(unsupported)
    expect(mapChannelBody(enc({ documentMessage: { fileName: 'a.pdf' } }))).toEqual(unsupported)
    expect(mapChannelBody(enc({ locationMessage: { degreesLatitude: 1, degreesLongitude: 2 } }))).toEqual(unsupported)
    expect(mapChannelBody(undefined)).toEqual(unsupported)
    expect(mapChannelBody(Buffer.from([0xff, 0xff, 0xff, 0x0f]))).toEqual(unsupported)
  })
})

describe('channel pages', () => {
  const row = (serverId: number, m: proto.IMessage | undefined): ChannelRow => ({
    id: `ID${serverId}`,
    serverId,
    t: 1_790_000_000 + serverId,
    plaintext: m ? enc(m) : undefined,
  })

  it('sorts newest first, builds urls and timestamps, and before = 0 on a short page', () => {
    const page = mapChannelPage(
      [row(5, { conversation: 'a' }), row(7, { conversation: 'b' }), row(6, undefined)],
      '0029VaInvite',
    )
    expect(page.docs.map(d => d.serverId)).toEqual([7, 6, 5])
    expect(page.docs[0]).toEqual({
      id: 'ID7',
      serverId: 7,
      url: 'https://whatsapp.com/channel/0029VaInvite/7',
      type: 'text',
      text: 'b',
      created: new Date((1_790_000_000 + 7) * 1000).toISOString(),
    })
    expect(page.docs[1]?.text).toBe(UNSUPPORTED_TEXT)
    expect(page.before).toBe(0)
  })

  it('a full page gives before = smallest serverId', () => {
    const rows = Array.from({ length: 100 }, (_, i) => row(1000 + i, { conversation: String(i) }))
    const page = mapChannelPage(rows.reverse(), 'inv')
    expect(page.docs).toHaveLength(100)
    expect(page.docs[0]?.serverId).toBe(1099)
    expect(page.before).toBe(1000)
  })

  it('stops a page before the post that would pass the byte bound, and its before walks every post exactly once', () => {
    // 250 posts of 64 KiB, served as the platform does: the 100 newest below `before`
    const posts = Array.from({ length: 250 }, (_, i) => row(i + 1, { conversation: `${i}`.padEnd(64 * 1024, 'x') }))
    const platformPage = (before?: number) => posts.filter(p => before === undefined || p.serverId < before).slice(-100)
    const maxBytes = 300_000
    const seen: number[] = []
    let before: number | undefined
    for (let pages = 0; pages < 100; pages++) {
      const page = mapChannelPage(platformPage(before), 'inv', maxBytes)
      expect(Buffer.byteLength(JSON.stringify(page.docs))).toBeLessThanOrEqual(maxBytes)
      seen.push(...page.docs.map(d => d.serverId))
      if (page.before === 0) break
      expect(page.docs).toHaveLength(4) // four 65 KB posts fit in 300 KB, five do not
      expect(page.before).toBe(Math.min(...page.docs.map(d => d.serverId)))
      before = page.before
    }
    // newest first, every post once: 62 pages of 4, then the last 2 with before 0
    expect(seen).toEqual(posts.map(p => p.serverId).reverse())
  })

  it('carries one post over the byte bound rather than an empty page, and continues after it', () => {
    const big = row(9, { conversation: 'y'.repeat(10_000) })
    const page = mapChannelPage([big, row(8, { conversation: 'z' })], 'inv', 1_000)
    expect(page.docs.map(d => d.serverId)).toEqual([9])
    expect(page.before).toBe(9)
  })

  it('url and created are empty, not made up, when the platform gives no invite code or time', () => {
    const page = mapChannelPage([{ id: 'ID1', serverId: 1, t: 0, plaintext: enc({ conversation: 'a' }) }], '')
    expect(page.docs[0]).toMatchObject({ url: '', created: '' })
  })
})

describe('channel list entries', () => {
  it('maps name, picture, owner role and creation time', () => {
    const base = {
      id: '1@newsletter',
      thread_metadata: { creation_time: '1688746895', name: { text: 'News' }, picture: { direct_path: '/p/1' } },
    }
    expect(mapChannel({ ...base, viewer_metadata: { role: 'OWNER' } })).toEqual({
      id: '1@newsletter',
      name: 'News',
      picture: 'https://mmg.whatsapp.net/p/1',
      isOwner: true,
      created: new Date(1688746895 * 1000).toISOString(),
    })
    expect(mapChannel({ ...base, viewer_metadata: { role: 'admin' } }).isOwner).toBe(true)
    expect(mapChannel({ ...base, viewer_metadata: { role: 'SUBSCRIBER' } }).isOwner).toBe(false)
    expect(mapChannel({ id: '2@newsletter' })).toEqual({
      id: '2@newsletter',
      name: '',
      picture: '',
      isOwner: false,
      created: '',
    })
    expect(
      mapChannel({ id: '3@newsletter', thread_metadata: { picture: { url: 'https://pps.example/x.jpg' } } }).picture,
    ).toBe('https://pps.example/x.jpg')
  })
})
