/**
 * The whole path through the real Baileys client, over HTTP only: create a session, read the QR from GET /session,
 * decode the PNG, scan it with a simulated phone, wait for the connection, send a text and an image, and read them
 * back decrypted from the recipient's inbox. Then restart the gateway on the same DATA_DIR.
 */
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type Gateway,
  inbox,
  launchGateway,
  mediaServer,
  pair,
  reply,
  sha256hex,
  startWorld,
  withSession,
  type Session,
} from '../../support/system/harness.js'
import { waitFor } from '../../support/wait-for.js'

const ALICE = '15550000001'
const BOB = '15550000002'

describe('pairing and sending through the sandbox', () => {
  let world: Awaited<ReturnType<typeof startWorld>>
  let gw: Gateway
  let media: Awaited<ReturnType<typeof mediaServer>>
  let session: Session
  let jpeg: Buffer

  beforeAll(async () => {
    world = await startWorld({
      accounts: [
        { phone: ALICE, name: 'Alice' },
        { phone: BOB, name: 'Bob' },
      ],
    })
    jpeg = await sharp({ create: { width: 320, height: 240, channels: 3, background: { r: 200, g: 40, b: 90 } } })
      .jpeg()
      .toBuffer()
    media = await mediaServer({ '/photo.jpg': { body: jpeg, type: 'image/jpeg' } })
    gw = await launchGateway(world.sandbox.url, world.dataDir)
  }, 120_000)

  afterAll(async () => {
    await gw?.proc.stop()
    await media?.close()
    await world?.cleanup()
  })

  it('creates a session at once and shows a readable QR, then connects after the scan', async () => {
    session = await gw.createSession()
    expect(Object.keys(session).sort()).toEqual(['id', 'sessionId'])
    // at least 128 random bits each: 22+ base64url characters or 32+ hex characters
    expect(session.id.length).toBeGreaterThanOrEqual(22)
    expect(session.sessionId.length).toBeGreaterThanOrEqual(22)

    const first = await gw.session(session)
    expect(first.status).toBe(200)
    expect(Object.keys(first.body).sort()).toEqual([
      'generatedId',
      'id',
      'isConnected',
      'name',
      'picture',
      'qrcode',
      'sessionId',
    ])
    expect(first.body).toMatchObject({
      id: session.id,
      sessionId: session.sessionId,
      isConnected: false,
      generatedId: '',
    })

    const connected = await pair(gw, world.sandbox.url, session, ALICE)
    expect(connected.qrcode).toBe('')
    expect(connected.generatedId).toMatch(new RegExp(`^${ALICE}:\\d+@s\\.whatsapp\\.net$`))
    const named = await waitFor(
      'the account name',
      async () => {
        const r = await gw.session(session)
        return r.body.name ? r.body : undefined
      },
      60_000,
    )
    expect(named.name).toBe('Alice')
  }, 120_000)

  it('sends a text that the recipient decrypts', async () => {
    const sent = await reply(
      gw.api.POST('/message', withSession(session, { body: { phone: `+${BOB}`, type: 'text', text: 'hello Bob' } })),
    )
    expect(sent.status).toBe(200)
    expect(Object.keys(sent.body)).toEqual(['messageId'])
    const got = await waitFor(
      "the text in Bob's inbox",
      async () => (await inbox(world.sandbox.url, BOB)).find(m => m.id === sent.body.messageId),
      60_000,
    )
    expect(got).toMatchObject({ type: 'text', text: 'hello Bob', from: ALICE, chat: ALICE, status: false })
  }, 60_000)

  it('sends an image whose decrypted bytes equal the served file', async () => {
    const sent = await reply(
      gw.api.POST(
        '/message',
        withSession(session, {
          body: {
            phone: BOB,
            type: 'image',
            text: 'a red square',
            image: { url: `${media.base}/photo.jpg`, mimetype: 'image/jpeg' },
          },
        }),
      ),
    )
    expect(sent.status).toBe(200)
    const got = await waitFor(
      "the image in Bob's inbox",
      async () => (await inbox(world.sandbox.url, BOB)).find(m => m.id === sent.body.messageId),
      60_000,
    )
    expect(got.type).toBe('image')
    expect(got.caption).toBe('a red square')
    expect(got.media.sha256).toBe(sha256hex(jpeg))
    expect(got.media.mimetype).toBe('image/jpeg')
    expect(got.media.hasThumbnail).toBe(true)
  }, 60_000)

  it('reports a media URL that fails exactly as the spec words it', async () => {
    const sent = await reply(
      gw.api.POST(
        '/message',
        withSession(session, {
          body: {
            phone: BOB,
            type: 'image',
            image: { url: `${media.base}/missing.jpg`, mimetype: 'image/jpeg' },
          },
        }),
      ),
    )
    expect(sent).toEqual({
      status: 500,
      body: { statusCode: 500, message: 'error parser file from url 404 Not Found' },
    })
  }, 60_000)

  it('comes back connected after a SIGTERM restart on the same DATA_DIR, without a new scan', async () => {
    expect(await gw.proc.stop('SIGTERM')).toBe(0)
    gw = await launchGateway(world.sandbox.url, world.dataDir)
    const back = await waitFor(
      'reconnection after restart',
      async () => {
        const r = await gw.session(session)
        return r.status === 200 && r.body.isConnected ? r.body : undefined
      },
      90_000,
    )
    expect(back.generatedId).toMatch(new RegExp(`^${ALICE}:`))
    const sent = await reply(
      gw.api.POST('/message', withSession(session, { body: { phone: BOB, type: 'text', text: 'after restart' } })),
    )
    expect(sent.status).toBe(200)
    await waitFor(
      'the text after restart',
      async () => (await inbox(world.sandbox.url, BOB)).find(m => m.id === sent.body.messageId),
      60_000,
    )
  }, 150_000)
})
