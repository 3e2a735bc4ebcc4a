/**
 * POST /status to a large address book, end to end: 1,200 synced contacts (more than one relay batch holds) all
 * receive the same status under ONE message id, decrypting the same bytes from ONE media upload, and nobody outside
 * the address book gets it. Kept apart from status.test.ts because a thousand simulated phones take a while.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mediaServer, sandboxCall } from '../../support/system/harness.js'
import { pairedGateway } from '../../support/system/paired-gateway.js'
import { largePhoto, phoneRange } from '../../support/system/status-media.js'
import { holders, postStatusWhenSynced, uploads, waitForStatus } from '../../support/system/status.js'

const GINA = '15551110007'
const ERIN = '15551110005' // on the platform, not in Gina's address book
const BIG_BOOK = phoneRange(15552000000, 1200)

describe('POST /status to a 1,200-contact address book', () => {
  const paired = pairedGateway(GINA, {
    world: {
      accounts: [
        {
          phone: GINA,
          name: 'Gina',
          syncContacts: true,
          statusPrivacy: { setting: 'contacts', list: [] },
          contacts: BIG_BOOK.map((phone, i) => ({ phone, name: `Contact ${i}` })),
        },
        { phone: ERIN, name: 'Erin', contacts: [{ phone: GINA, name: 'Gina' }] },
      ],
    },
  })
  let media: Awaited<ReturnType<typeof mediaServer>>

  beforeAll(async () => {
    media = await mediaServer({ '/photo.jpg': { body: await largePhoto(), type: 'image/jpeg' } })
  })

  afterAll(async () => {
    await media?.close()
  })

  it('every contact gets the image status in batches under one message id, from one media upload', async () => {
    const url = paired.sandbox.url
    const before = await uploads(url)
    const posted = await postStatusWhenSynced(paired.gw, paired.session, {
      type: 'image',
      text: 'to everyone',
      image: { url: `${media.base}/photo.jpg`, mimetype: 'image/jpeg' },
    })
    expect(posted.status).toBe(200)
    const id: string = posted.body.statusId

    const got = await waitForStatus(url, [...BIG_BOOK, GINA], id, 150_000)
    expect(got.size).toBe(BIG_BOOK.length + 1)
    const records = [...got.values()]
    const failed = records.filter(m => m.error || !m.media)
    expect(failed.length, JSON.stringify(failed.slice(0, 3))).toBe(0)
    expect(new Set(records.map(m => m.id))).toEqual(new Set([id]))
    expect(new Set(records.map(m => m.caption))).toEqual(new Set(['to everyone']))
    const hashes = new Set(records.map(m => m.media.sha256))
    expect(hashes.size).toBe(1)

    const stats = (await sandboxCall(url, 'GET', '/stats')).body
    expect((await uploads(url)) - before, JSON.stringify(stats)).toBe(1)
    // more than one relay stanza carried this one id (the gateway batches; one stanza per batch)
    expect(stats.statusStanzas[id]).toBeGreaterThan(1)
    expect(await holders(url, [ERIN], id)).toEqual([])
  }, 240_000)
})
