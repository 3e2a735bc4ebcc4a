/**
 * What happens to a connected session when the connection or the device goes away, through the real gateway and
 * the sandbox's fault switches: a dropped connection comes back by itself (isConnected false meanwhile, same
 * device, no new scan); the phone logging the device out, or the platform refusing the account at login, returns the
 * session to awaiting a QR, and a new scan pairs it again (GET /session saying why it is not connected, each time);
 * SIGTERM lets an in-flight send finish before the process exits.
 */
import { createServer } from 'node:http'
import { once } from 'node:events'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { inbox, pair, reply, sandboxCall, sha256hex, withSession } from '../../support/system/harness.js'
import { pairedGateway } from '../../support/system/paired-gateway.js'
import { waitFor } from '../../support/wait-for.js'

const ALICE = '15550000001'
const BOB = '15550000002'

describe('session lifecycle under faults', () => {
  const paired = pairedGateway(ALICE, {
    world: {
      accounts: [
        { phone: ALICE, name: 'Alice' },
        { phone: BOB, name: 'Bob' },
      ],
    },
    // A first reconnect delay long enough for a 250 ms poll to see the session disconnected.
    env: { RECONNECT_MIN_MS: '2500', RECONNECT_MAX_MS: '5000' },
  })

  it('reconnects by itself after the platform drops the connection, keeping the same device', async () => {
    const before = (await paired.gw.session(paired.session)).body
    await sandboxCall(paired.sandbox.url, 'POST', '/faults', { dropSessionOf: ALICE })
    const down = await waitFor(
      'isConnected false',
      async () => {
        const r = await paired.gw.session(paired.session)
        return r.body.isConnected === false ? r.body : undefined
      },
      30_000,
    )
    expect(down).toMatchObject({ generatedId: before.generatedId, qrcode: '', name: '', reason: 'connection-lost' })
    const up = await waitFor(
      'reconnected',
      async () => {
        const r = await paired.gw.session(paired.session)
        return r.body.isConnected ? r.body : undefined
      },
      60_000,
    )
    expect(up.generatedId).toBe(before.generatedId)
    expect(up.reason).toBeUndefined() // connected: nothing to explain
    const sent = await reply(
      paired.gw.api.POST(
        '/message',
        withSession(paired.session, { body: { phone: BOB, type: 'text', text: 'back again' } }),
      ),
    )
    expect(sent.status).toBe(200)
    await waitFor(
      'the text after reconnecting',
      async () => (await inbox(paired.sandbox.url, BOB)).find(m => m.id === sent.body.messageId),
      60_000,
    )
  }, 120_000)

  it('returns to awaiting a QR when the phone logs the device out, and pairs again with a new scan', async () => {
    const before = (await paired.gw.session(paired.session)).body
    await sandboxCall(paired.sandbox.url, 'POST', '/faults', { logoutDeviceOf: ALICE })
    const awaiting = await waitFor(
      'a new QR after logout',
      async () => {
        const r = await paired.gw.session(paired.session)
        return r.status === 200 && !r.body.isConnected && r.body.qrcode ? r.body : undefined
      },
      60_000,
    )
    // GET /session says why the QR is back
    expect(awaiting).toMatchObject({ generatedId: '', name: '', isConnected: false, reason: 'logged-out' })
    expect(awaiting.reasonMessage).toBe('the device was logged out from the phone: scan the new QR to pair again')
    const send = await reply(
      paired.gw.api.POST('/message', withSession(paired.session, { body: { phone: BOB, type: 'text', text: 'x' } })),
    )
    expect(send).toEqual({ status: 500, body: { statusCode: 500, message: 'session not connected' } })

    await sandboxCall(paired.sandbox.url, 'DELETE', '/faults')
    const again = await pair(paired.gw, paired.sandbox.url, paired.session, ALICE)
    expect(again.generatedId).toMatch(new RegExp(`^${ALICE}:\\d+@s\\.whatsapp\\.net$`))
    expect(again.generatedId).not.toBe(before.generatedId) // a new linked device
    expect(again.reason).toBeUndefined()
  }, 150_000)

  it('goes back to a QR when the platform refuses the account at login (403), saying why', async () => {
    await sandboxCall(paired.sandbox.url, 'POST', '/faults', { refuseAccount: ALICE, dropSessionOf: ALICE })
    const refused = await waitFor('a new QR after the refusal', async () => {
      const r = await paired.gw.session(paired.session)
      return r.status === 200 && !r.body.isConnected && r.body.qrcode ? r.body : undefined
    })
    expect(refused).toMatchObject({ generatedId: '', reason: 'account-refused' })
    expect(refused.reasonMessage).toBe(
      'the platform refused the account (403): it may be banned or restricted, see the phone',
    )
    await sandboxCall(paired.sandbox.url, 'DELETE', '/faults')
    const again = await pair(paired.gw, paired.sandbox.url, paired.session, ALICE)
    expect(again.reason).toBeUndefined()
  }, 150_000)

  it('lets an in-flight send finish on SIGTERM, then exits cleanly', async () => {
    // A media host that trickles a JPEG over about two seconds.
    const jpeg = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#208040' } })
      .jpeg()
      .toBuffer()
    let downloading = false
    const slow = createServer(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': jpeg.length })
      downloading = true
      const step = Math.ceil(jpeg.length / 10)
      for (let i = 0; i < jpeg.length; i += step) {
        res.write(jpeg.subarray(i, i + step))
        await new Promise(r => setTimeout(r, 200))
      }
      res.end()
    })
    slow.listen(0, '127.0.0.1')
    await once(slow, 'listening')
    const url = `http://127.0.0.1:${(slow.address() as { port: number }).port}/slow.jpg`
    try {
      const pending = reply(
        paired.gw.api.POST(
          '/message',
          withSession(paired.session, { body: { phone: BOB, type: 'image', image: { url, mimetype: 'image/jpeg' } } }),
        ),
      )
      await waitFor('the download under way', () => downloading, 30_000, 20)
      const exited = paired.gw.proc.stop('SIGTERM')
      const sent = await pending
      expect(sent.status).toBe(200)
      expect(await exited).toBe(0)
      const got = await waitFor(
        'the image sent during shutdown',
        async () => (await inbox(paired.sandbox.url, BOB)).find(m => m.id === sent.body.messageId),
        60_000,
      )
      expect(got.media.sha256).toBe(sha256hex(jpeg))
    } finally {
      await new Promise(r => slow.close(r))
    }
  }, 90_000)
})
