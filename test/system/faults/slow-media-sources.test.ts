/**
 * Three tenants whose media hosts drip bytes do not hold up a fourth's media (docs/operating.md, "Limits"). On
 * the real gateway with two shards and the default media slots (2 per shard, 3 in the process), three paired
 * sessions each send an image from a loopback origin that sends 8 bytes a second and never finishes. Downloading
 * holds no CPU slot, so a fourth session's image from a fast origin goes through while all three still download:
 * its 200 comes before any of theirs, in about the time the same send took with nothing else running (before, the
 * three held every slot and the fourth waited for MEDIA_TIMEOUT_MS). The drip senders then fail as documented,
 * `500 error parser file from url timeout after 20000 ms`, and the gateway hangs up on the origin.
 */
import { randomBytes } from 'node:crypto'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDripServer, type DripServer } from '../../support/fakes/drip-server.js'
import {
  inbox,
  launchGateway,
  mediaServer,
  pair,
  sha256hex,
  startWorld,
  type Gateway,
  type Session,
} from '../../support/system/harness.js'
import { sessionOnShard } from '../../support/system/faults.js'
import { waitFor } from '../../support/wait-for.js'

const MEDIA_TIMEOUT_MS = 20_000
const RECIPIENT = '15550000002'
/** Two drip senders on shard 0 and one on shard 1 fill the process's 3 CPU slots as they were held before. */
const DRIP_SENDERS = [
  { phone: '15550000001', shard: 0 },
  { phone: '15550000003', shard: 0 },
  { phone: '15550000004', shard: 1 },
]
const NEIGHBOUR = { phone: '15550000005', shard: 1 }

describe("three drip-fed tenants and a fourth tenant's media", () => {
  let world: Awaited<ReturnType<typeof startWorld>>
  let gw: Gateway
  let drip: DripServer
  let fast: Awaited<ReturnType<typeof mediaServer>>
  let photo: Buffer
  let drippers: Session[]
  let neighbour: Session

  beforeAll(async () => {
    const phones = [RECIPIENT, ...DRIP_SENDERS.map(s => s.phone), NEIGHBOUR.phone]
    world = await startWorld({
      accounts: phones.map((phone, i) => ({ phone, name: `Tenant ${i}` })),
    })
    // a real photo-sized JPEG (noise does not compress): a thumbnail to decode, a file to encrypt and upload
    photo = await sharp(randomBytes(1600 * 1200 * 3), { raw: { width: 1600, height: 1200, channels: 3 } })
      .jpeg({ quality: 80 })
      .toBuffer()
    fast = await mediaServer({ '/photo.jpg': { body: photo, type: 'image/jpeg' } })
    drip = await startDripServer({ bytesPerSecond: 8 })
    gw = await launchGateway(world.sandbox.url, world.dataDir, {
      SHARDS: '2',
      SHARD_FILL: '1', // sessions on both shards from the second on
      MEDIA_TIMEOUT_MS: String(MEDIA_TIMEOUT_MS),
    })
    drippers = []
    for (const { phone, shard } of DRIP_SENDERS) {
      const s = await sessionOnShard(gw, shard)
      await pair(gw, world.sandbox.url, s, phone)
      drippers.push(s)
    }
    neighbour = await sessionOnShard(gw, NEIGHBOUR.shard)
    await pair(gw, world.sandbox.url, neighbour, NEIGHBOUR.phone)
  }, 240_000)
  afterAll(async () => {
    await gw?.proc.stop()
    await drip?.close()
    await fast?.close()
    await world?.cleanup()
  })

  const image = (url: string) => ({ phone: RECIPIENT, type: 'image', image: { url, mimetype: 'image/jpeg' } })
  async function timedSend(s: Session, url: string) {
    const started = Date.now()
    const r = await gw.call('POST', '/message', s, image(url))
    return { ...r, ms: Date.now() - started }
  }

  it("sends the fourth tenant's image while all three still download, in about its own time; theirs time out", async () => {
    // the neighbour's send alone (the first image of the process also loads sharp and starts the media pool)
    await timedSend(neighbour, `${fast.base}/photo.jpg`)
    const alone = await timedSend(neighbour, `${fast.base}/photo.jpg`)
    expect(alone.status, JSON.stringify(alone.body)).toBe(200)

    const dripStarted = Date.now()
    const settled: boolean[] = drippers.map(() => false)
    const dripping = drippers.map((s, i) =>
      gw.call('POST', '/message', s, image(drip.url)).finally(() => {
        settled[i] = true
      }),
    )
    await waitFor('three downloads dripping', () => drip.open === 3, 30_000, 50)

    const contended = await timedSend(neighbour, `${fast.base}/photo.jpg`)
    expect(contended.status, JSON.stringify(contended.body)).toBe(200)
    // its 200 came while every drip sender was still downloading: nothing of theirs ended, no origin was let go
    expect(settled).toEqual([false, false, false])
    expect(drip.open).toBe(3)
    const dripLeft = MEDIA_TIMEOUT_MS - (Date.now() - dripStarted)
    // about its own time: generous against a loaded machine, and far under what the drip senders have left
    expect(contended.ms).toBeLessThan(Math.max(5 * alone.ms, alone.ms + 5_000))
    expect(contended.ms).toBeLessThan(dripLeft)

    for (const r of await Promise.all(dripping)) {
      expect(r).toEqual({
        status: 500,
        body: { statusCode: 500, message: `error parser file from url timeout after ${MEDIA_TIMEOUT_MS} ms` },
      })
    }
    await waitFor('the gateway hung up on the drip origin', () => drip.open === 0, 10_000, 50)
    expect(drip.requests).toBe(3)

    // both of the neighbour's images arrived whole
    const sent = [alone.body.messageId, contended.body.messageId]
    const got = await waitFor(
      "the neighbour's images at the recipient",
      async () => {
        const messages = await inbox(world.sandbox.url, RECIPIENT)
        const mine = sent.map(id => messages.find(m => m.id === id))
        return mine.every(Boolean) ? mine : undefined
      },
      60_000,
    )
    for (const m of got) expect(m.media).toMatchObject({ mimetype: 'image/jpeg', sha256: sha256hex(photo) })
  }, 120_000)
})
