/**
 * Retry receipts after a restart. The recipient's phone cannot decrypt two messages (a text and an image)
 * and asks for them again; its retry receipts reach the gateway only after a `kill -9` and a new start (sandbox
 * fault `retryAfterReconnect`: offline receipts, as a sender that was away gets them). Baileys' own memory of sent
 * messages died with the process, so only the gateway's sealed store of sent messages can answer: each message then
 * arrives exactly once, with its text and its image bytes. Without that store (main before this change, or
 * RETRY_STORE_MAX_MESSAGES=0) the phone waits for ever. Also: the store keeps at most RETRY_STORE_MAX_MESSAGES per
 * session, and DELETE /session empties it.
 */
import { randomBytes } from 'node:crypto'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openLmdbStore } from '../../../src/storage/lmdb-store.js'
import { inbox, launchGateway, mediaServer, sha256hex } from '../../support/system/harness.js'
import { pairedGateway } from '../../support/system/paired-gateway.js'
import {
  ALICE,
  BOB,
  clearFaults,
  connected,
  faultWorld,
  retryReceipts,
  setFaults,
} from '../../support/system/faults.js'
import { waitFor } from '../../support/wait-for.js'

const DATA_KEY = randomBytes(32).toString('base64')
const LIMITS = { maxAgeMs: 86_400_000, maxMessages: 1_000 }

/** The message ids the store of a stopped gateway still holds for `sessionId`, among `ids`. */
async function keptIds(dataDir: string, sessionId: string, ids: string[]): Promise<string[]> {
  const store = openLmdbStore(dataDir, { dataKey: DATA_KEY })
  try {
    const sent = store.sentMessages(sessionId, LIMITS)
    const kept: string[] = []
    for (const id of ids) if (await sent.get(id)) kept.push(id)
    return kept
  } finally {
    await store.close()
  }
}

describe('a retry receipt that reaches the gateway after a restart', () => {
  let media: Awaited<ReturnType<typeof mediaServer>>
  let photo: Buffer
  const env = { DATA_KEY, RETRY_STORE_MAX_MESSAGES: '3' }
  const paired = pairedGateway(ALICE, { start: faultWorld, env, timeoutMs: 300_000 })

  beforeAll(async () => {
    photo = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 10, g: 120, b: 200 } } })
      .jpeg()
      .toBuffer()
    media = await mediaServer({ '/photo.jpg': { body: photo, type: 'image/jpeg' } })
  })
  afterAll(async () => {
    await media?.close()
  })

  it('is answered from the kept message: each arrives once, with the right content', async () => {
    const url = paired.sandbox.url
    await setFaults(url, { failDecryptOf: BOB, failDecryptCount: 2, retryAfterReconnect: true })
    const text = `asked for again ${Date.now()}`
    const first = await paired.gw.call('POST', '/message', paired.session, { phone: BOB, type: 'text', text })
    const image = await paired.gw.call('POST', '/message', paired.session, {
      phone: BOB,
      type: 'image',
      text: 'blue',
      image: { url: `${media.base}/photo.jpg`, mimetype: 'image/jpeg' },
    })
    expect([first.status, image.status]).toEqual([200, 200])
    const ids = [first.body.messageId as string, image.body.messageId as string]
    await waitFor(
      'both failed decryptions',
      async () => {
        const asked = await retryReceipts(url)
        return ids.every(id => asked[id] === 1) || undefined
      },
      30_000,
    )
    expect((await inbox(url, BOB)).filter(m => ids.includes(m.id))).toEqual([]) // the phone holds neither yet

    expect(await paired.gw.proc.stop('SIGKILL')).toBe(null)
    paired.gw = await launchGateway(url, paired.dataDir, env)
    await connected(paired.gw, paired.session, 120_000)

    const got = await waitFor(
      'both messages sent again',
      async () => {
        const all = await inbox(url, BOB)
        const found = ids.map(id => all.find(m => m.id === id))
        return found.every(Boolean) ? found : undefined
      },
      60_000,
    )
    expect(got[0]).toMatchObject({ type: 'text', text, from: ALICE })
    expect(got[1]).toMatchObject({
      type: 'image',
      caption: 'blue',
      from: ALICE,
      media: { mimetype: 'image/jpeg', sha256: sha256hex(photo) },
    })
    expect(got[1].error).toBeUndefined()

    // one more message afterwards; by the time it is in, any second copy of the first two would be too
    const after = await paired.gw.call('POST', '/message', paired.session, {
      phone: BOB,
      type: 'text',
      text: `after ${text}`,
    })
    expect(after.status).toBe(200)
    await waitFor(
      'the next message',
      async () => (await inbox(url, BOB)).find(m => m.id === after.body.messageId),
      60_000,
    )
    const all = await inbox(url, BOB)
    for (const id of ids) expect(all.filter(m => m.id === id)).toHaveLength(1)
    expect(Object.values(await retryReceipts(url))).toEqual([1, 1]) // asked once each, answered the first time
    await clearFaults(url)
  }, 400_000)

  it('keeps at most RETRY_STORE_MAX_MESSAGES per session, and DELETE /session empties it', async () => {
    const sent: string[] = []
    for (let i = 0; i < 5; i++) {
      const r = await paired.gw.call('POST', '/message', paired.session, {
        phone: BOB,
        type: 'text',
        text: `bounded #${i}`,
      })
      expect(r.status).toBe(200)
      sent.push(r.body.messageId)
    }
    await paired.gw.proc.stop()
    expect(await keptIds(paired.dataDir, paired.session.id, sent)).toEqual(sent.slice(2)) // the newest 3, sealed with DATA_KEY

    paired.gw = await launchGateway(paired.sandbox.url, paired.dataDir, env)
    await connected(paired.gw, paired.session, 120_000)
    expect((await paired.gw.call('DELETE', '/session', paired.session)).status).toBe(200)
    await paired.gw.proc.stop()
    expect(await keptIds(paired.dataDir, paired.session.id, sent)).toEqual([])
  }, 400_000)
})
