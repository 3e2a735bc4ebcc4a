/**
 * GET /channel/message pages bounded in bytes as well as in count, through the real gateway against the sandbox,
 * the attack as it was found: a tenant posts 64 KiB texts to its own channel, then reads the history. With
 * CHANNEL_PAGE_MAX_BYTES each page stops before the post that would pass it, its `before` continues from there, and
 * walking `before` to 0 still gives every post once, newest first.
 */
import { describe, expect, it } from 'vitest'
import { reply, withSession } from '../../support/system/harness.js'
import { pairedGateway } from '../../support/system/paired-gateway.js'
import { ALICE, CUSTOM_LIST_QUERY_ID, OWNED, startChannelsWorld } from '../../support/system/channels-world.js'

const PAGE_BYTES = 200_000
const POSTS = 12
const LONG = 64 * 1024

describe('channel history pages bounded in bytes', () => {
  const paired = pairedGateway(ALICE, {
    start: startChannelsWorld,
    env: { CHANNEL_LIST_QUERY_ID: CUSTOM_LIST_QUERY_ID, CHANNEL_PAGE_MAX_BYTES: String(PAGE_BYTES) },
    timeoutMs: 150_000,
  })

  it('stops each page at CHANNEL_PAGE_MAX_BYTES and walks every post once with before', async () => {
    const posted: string[] = []
    for (let i = 0; i < POSTS; i++) {
      const text = `${i} `.padEnd(LONG, 'x')
      const sent = await reply(
        paired.gw.api.POST(
          '/message',
          withSession(paired.session, { body: { newsletter: OWNED.id, type: 'text', text } }),
        ),
      )
      expect(sent.status).toBe(200)
      posted.push(text)
    }

    type Doc = { serverId: number; text: string }
    const pages: Doc[][] = []
    let before: number | undefined
    for (let page = 0; page < 20; page++) {
      const query = { channelId: OWNED.id, ...(before ? { before } : {}) }
      const r = await reply(paired.gw.api.GET('/channel/message', withSession(paired.session, { params: { query } })))
      expect(r.status).toBe(200)
      pages.push(r.body.docs)
      if (r.body.before === 0) break
      expect(r.body.before).toBe(Math.min(...r.body.docs.map((d: Doc) => d.serverId)))
      before = r.body.before
    }
    const bytes = (docs: Doc[]) => Buffer.byteLength(JSON.stringify(docs))
    for (const [i, docs] of pages.entries()) {
      expect(bytes(docs)).toBeLessThanOrEqual(PAGE_BYTES)
      // a page under the spec's 100 stopped only because the next post would have taken it past the bound
      const next = pages[i + 1]?.[0]
      if (docs.length < 100 && next) expect(bytes([...docs, next])).toBeGreaterThan(PAGE_BYTES)
    }
    expect(pages[0]).toHaveLength(3) // three 64 KiB posts fit in 200 KB, four do not
    const all = pages.flat()
    expect(all.map(d => d.serverId)).toEqual(Array.from({ length: 250 + POSTS }, (_, i) => 250 + POSTS - i))
    expect(all.slice(0, POSTS).map(d => d.text)).toEqual([...posted].reverse())
  }, 120_000)
})
