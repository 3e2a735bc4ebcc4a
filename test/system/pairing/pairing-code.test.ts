/**
 * Pairing by code through the real gateway process and the unmodified Baileys client, over HTTP only: POST
 * /session/pairing-code, then the sandbox's phone enters the code (POST /link-code: the protocol's own key agreement,
 * the QR flow's pair-success). The right code links and the session sends; a wrong or expired code fails as the
 * platform fails it and the session keeps awaiting pairing (its QR still links); the code is answered only after the
 * platform accepted it, and a refusal is no code; the QR page's view shows the code and not the number.
 */
import { describe, expect, it } from 'vitest'
import { inbox, pair, type Reply, reply, sandboxCall, type Session, withSession } from '../../support/system/harness.js'
import { gatewayWorld } from '../../support/system/paired-gateway.js'
import { waitFor } from '../../support/wait-for.js'

const ALICE = '15550000001'
const CODE = /^[1-9A-HJ-NP-TV-Z]{4}-[1-9A-HJ-NP-TV-Z]{4}$/

describe('pairing by code', () => {
  // every test asks for several codes in a row: the per-session rate is the unit tests' (route.test.ts)
  const world = gatewayWorld({ env: { PAIRING_CODE_INTERVAL_MS: '0' } })
  const sandbox = (method: string, route: string, body?: unknown) => sandboxCall(world.sandbox.url, method, route, body)

  const requestCode = (s: Session, phone: string): Promise<Reply> =>
    reply(world.gw.api.POST('/session/pairing-code', withSession(s, { body: { phone } })))
  /** A new session, once it shows its first QR (its connection is registered with the platform). */
  async function awaitingPairing(): Promise<Session> {
    const s = await world.gw.createSession()
    await waitFor('a QR', async () => (await world.gw.session(s)).body.qrcode || undefined, 60_000)
    return s
  }
  const enterCode = (phone: string, code: string) => sandbox('POST', '/link-code', { phone, code })
  const connected = (s: Session) =>
    waitFor('connected', async () => ((await world.gw.session(s)).body.isConnected ? true : undefined), 60_000)
  const hellos = async (): Promise<number> => (await sandbox('GET', '/stats')).body.linkCodeHellos ?? 0

  it('the right code links: the session turns connected as after a scan, and sends', async () => {
    const phone = '15550000031'
    const s = await awaitingPairing()
    const asked = Date.now()
    const r = await requestCode(s, '+1 555 000 0031')
    expect(r.status).toBe(200)
    expect(Object.keys(r.body).sort()).toEqual(['code', 'expiresAt'])
    expect(r.body.code).toMatch(CODE)
    const expiresAt = Date.parse(r.body.expiresAt)
    expect(expiresAt).toBeGreaterThan(asked)
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 180_000)
    // GET /session is the spec's: the QR keeps rotating and no code appears there
    const body = (await world.gw.session(s)).body
    expect(Object.keys(body).sort()).toEqual(
      ['generatedId', 'id', 'isConnected', 'name', 'picture', 'qrcode', 'sessionId'].sort(),
    )
    expect(body.qrcode).not.toBe('')

    const linked = await enterCode(phone, r.body.code)
    expect(linked.status).toBe(200)
    await connected(s)
    expect((await world.gw.session(s)).body.generatedId).toBe(`${phone}:${linked.body.device}@s.whatsapp.net`)
    const sent = await reply(
      world.gw.api.POST('/message', withSession(s, { body: { phone: ALICE, type: 'text', text: 'linked by code' } })),
    )
    expect(sent.status).toBe(200)
    const received = await waitFor('the text at Alice', async () =>
      (await inbox(world.sandbox.url, ALICE)).find(m => m.id === sent.body.messageId),
    )
    expect(received).toMatchObject({ from: phone, type: 'text', text: 'linked by code' })
    expect(await requestCode(s, phone)).toEqual({
      status: 409,
      body: { statusCode: 409, message: 'session is already paired; it needs no pairing code' },
    })
  })

  it('a wrong code fails on the phone and the session keeps awaiting pairing; the right one then links', async () => {
    const phone = '15550000032'
    const s = await awaitingPairing()
    const { code } = (await requestCode(s, phone)).body
    const wrong = await enterCode(phone, code === 'ABCD-EFGH' ? 'ABCD-EFGJ' : 'ABCD-EFGH')
    expect(wrong).toEqual({
      status: 400,
      body: { error: "wrong code: the phone could not open the device's key bundle" },
    })
    const after = (await world.gw.session(s)).body
    expect([after.isConnected, after.qrcode !== '']).toEqual([false, true])
    expect((await enterCode(phone, code)).status).toBe(200)
    await connected(s)
  })

  it('after a wrong code the QR still links: the gateway shows it with the key the exchange changed', async () => {
    const phone = '15550000033'
    const s = await awaitingPairing()
    const before = (await world.gw.session(s)).body.qrcode
    const { code } = (await requestCode(s, phone)).body
    expect((await enterCode(phone, code === 'ABCD-EFGH' ? 'ABCD-EFGJ' : 'ABCD-EFGH')).status).toBe(400)
    await waitFor('the QR made again', async () =>
      (await world.gw.session(s)).body.qrcode !== before ? true : undefined,
    )
    await pair(world.gw, world.sandbox.url, s, phone) // scans the QR shown now; throws if the phone's scan is refused
  })

  it('an expired code fails as the platform fails it, and the session keeps awaiting pairing', async () => {
    const phone = '15550000034'
    const s = await awaitingPairing()
    await sandbox('POST', '/faults', { linkCodeTtlMs: 1 })
    try {
      const { code } = (await requestCode(s, phone)).body
      expect(await enterCode(phone, code)).toEqual({
        status: 400,
        body: { error: 'expired code: ask the device for a new one' },
      })
    } finally {
      await sandbox('DELETE', '/faults')
    }
    const after = (await world.gw.session(s)).body
    expect([after.isConnected, after.qrcode !== '']).toEqual([false, true])
    // a new code (the old one is gone) still links it
    const fresh = (await requestCode(s, phone)).body
    expect((await enterCode(phone, fresh.code)).status).toBe(200)
    await connected(s)
  })

  it('answers only after the platform accepted the code; a refusal gives no code', async () => {
    const phone = '15550000035'
    const s = await awaitingPairing()
    await sandbox('POST', '/faults', { holdLinkCodes: true })
    try {
      const seen = await hellos()
      let settled = false
      const held = requestCode(s, phone).finally(() => {
        settled = true
      })
      await waitFor('the companion_hello at the platform', async () => ((await hellos()) > seen ? true : undefined))
      // the platform holds its answer: the gateway answers other requests meanwhile, but not this one
      expect((await world.gw.session(s)).status).toBe(200)
      expect(settled).toBe(false)
      await sandbox('POST', '/faults', { holdLinkCodes: false })
      const accepted = await held
      expect(accepted.status).toBe(200)
      expect((await enterCode(phone, accepted.body.code)).status).toBe(200)
      await connected(s)

      const refused = await awaitingPairing()
      await sandbox('POST', '/faults', { holdLinkCodes: true })
      const asked = await hellos()
      const pending = requestCode(refused, '15550000036')
      await waitFor('the second companion_hello', async () => ((await hellos()) > asked ? true : undefined))
      await sandbox('POST', '/faults', { linkCodeError: 429, holdLinkCodes: false })
      expect(await pending).toEqual({
        status: 500,
        body: { statusCode: 500, message: 'the platform refused the pairing code request (error 429)' },
      })
      expect(await enterCode('15550000036', 'ABCD-EFGH')).toEqual({
        status: 400,
        body: { error: 'no device is waiting for a code for this number' },
      })
      const after = (await world.gw.session(refused)).body
      expect([after.isConnected, after.qrcode !== '']).toEqual([false, true])
    } finally {
      await sandbox('DELETE', '/faults')
    }
  })

  it("the QR page's view shows the pending code and its expiry, never the number", async () => {
    const phone = '15550000037'
    const s = await awaitingPairing()
    const link = await reply(world.gw.api.POST('/session/view-link', withSession(s)))
    const token = new URLSearchParams(new URL(link.body.url).hash.slice(1)).get('view')!
    const viewQr = () => world.gw.raw('GET', '/session/qr', { 'view-token': token })
    expect((await viewQr()).body.pairingCode).toBeNull()
    const { code, expiresAt } = (await requestCode(s, phone)).body
    const shown = await waitFor('the code on the view', async () => {
      const r = await viewQr()
      return r.body.pairingCode ? r : undefined
    })
    expect(shown.body.pairingCode).toEqual({ code, expiresAt })
    expect(JSON.stringify(shown.body)).not.toContain(phone.slice(1))
  })

  it('refuses a number that is not one, before asking the platform', async () => {
    const s = await awaitingPairing()
    const seen = await hellos()
    for (const [phone, message] of [
      ['555', 'phone must be a valid phone number'],
      ['', 'phone should not be empty'],
      ['1555000003@s.whatsapp.net', 'phone must be a valid phone number'],
    ]) {
      expect(await requestCode(s, phone!)).toEqual({ status: 400, body: { statusCode: 400, message } })
    }
    expect(await hellos()).toBe(seen)
  })
})
