/**
 * View-only QR links against the real gateway and the sandbox, over HTTP only (no browser): the token is not the
 * secret and opens no API endpoint, shows the session's live QR, stops once the phone pairs the session (410), when
 * the session is reset or deleted, and at the end of the QR window (404).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { decodeQrPng } from '../../../src/demo/qr-decode.js'
import { launchGateway, sandboxCall, type Gateway, type Session } from '../../support/system/harness.js'
import { gatewayWorld } from '../../support/system/paired-gateway.js'
import { viewLink } from '../../support/system/qr-page.js'
import { waitFor } from '../../support/wait-for.js'

const GONE = { status: 404, body: { statusCode: 404, message: 'view link not found or expired' } }
const LINKED = {
  status: 410,
  body: { statusCode: 410, message: 'the session is linked; this view link no longer works' },
}
const NO_SESSION = { status: 404, body: { statusCode: 404, message: 'session not found' } }

describe('view-only QR links', () => {
  const world = gatewayWorld()

  const qrWith = (token: string) => world.gw.raw('GET', '/session/qr', { 'view-token': token })

  it('the token is not the secret and opens no API endpoint', async () => {
    const session = await world.gw.createSession()
    const { url, token } = await viewLink(world.gw, session)
    expect(token).not.toBe(session.sessionId)
    expect(url).not.toContain(session.sessionId)
    const text = JSON.stringify({ phone: '15550000002', type: 'text', text: 'sent with a view token' })
    const asToken: Session = { id: token, sessionId: token }
    const withTokenSecret: Session = { id: session.id, sessionId: token }
    for (const s of [asToken, withTokenSecret]) {
      expect(await world.gw.raw('POST', '/message', { id: s.id, 'session-id': s.sessionId }, text)).toMatchObject(
        NO_SESSION,
      )
      expect(await world.gw.call('GET', '/session', s)).toMatchObject(NO_SESSION)
      expect(await world.gw.call('GET', '/group', s)).toMatchObject(NO_SESSION)
      expect(await world.gw.call('POST', '/session/view-link', s)).toMatchObject(NO_SESSION)
      expect(await world.gw.call('POST', '/session/reset', s)).toMatchObject(NO_SESSION)
      expect(await world.gw.call('DELETE', '/session', s)).toMatchObject(NO_SESSION)
    }
    // ...and the secret is no view token
    expect(await qrWith(session.sessionId)).toMatchObject(GONE)
    expect((await world.gw.session(session)).status).toBe(200) // untouched by all of the above
  }, 120_000)

  it('shows the live QR, which pairs; then 410, and a paired session gets no link until it is reset', async () => {
    const session = await world.gw.createSession()
    const { token, expiresAt } = await viewLink(world.gw, session)
    expect(Date.parse(expiresAt)).toBeGreaterThan(Date.now() + 120_000) // the QR window: about 3 minutes
    const png = await waitFor(
      'a QR through the view link',
      async () => (await qrWith(token)).body.qrcode || undefined,
      60_000,
    )
    expect((await qrWith(token)).body).toEqual({ qrcode: png, expiresAt, pairingCode: null })
    expect(png).toBe((await world.gw.session(session)).body.qrcode)

    const scan = await sandboxCall(world.sandbox.url, 'POST', '/scan', { qr: decodeQrPng(png), phone: '15550000001' })
    expect(scan.status).toBe(200)
    await waitFor('connected', async () => (await world.gw.session(session)).body.isConnected || undefined, 90_000)
    expect(await qrWith(token)).toMatchObject(LINKED)
    expect(await world.gw.call('POST', '/session/view-link', session)).toMatchObject({
      status: 409,
      body: { statusCode: 409, message: 'session is already paired; there is no QR to show' },
    })

    // A reset restarts pairing: the old link stays dead (revoked), a new one shows the new QR until the session is deleted.
    expect((await world.gw.call('POST', '/session/reset', session)).status).toBe(200)
    const fresh = await waitFor(
      'a view link after the reset',
      async () => {
        const r = await world.gw.call('POST', '/session/view-link', session)
        return r.status === 200 ? new URLSearchParams(new URL(r.body.url).hash.slice(1)).get('view')! : undefined
      },
      60_000,
    )
    expect(await qrWith(token)).toMatchObject(GONE) // the reset revoked it: still no QR through the old link
    expect((await qrWith(fresh)).status).toBe(200)
    expect((await world.gw.call('DELETE', '/session', session)).status).toBe(200)
    expect(await qrWith(fresh)).toMatchObject(GONE)
  }, 240_000)

  it('a reset revokes the links to the old QR window', async () => {
    const session = await world.gw.createSession()
    const { token } = await viewLink(world.gw, session)
    expect((await qrWith(token)).status).toBe(200)
    expect((await world.gw.call('POST', '/session/reset', session)).status).toBe(200)
    expect(await qrWith(token)).toMatchObject(GONE)
    expect((await viewLink(world.gw, session)).token).not.toBe(token)
  }, 120_000)

  describe('with a short QR window', () => {
    let short: Gateway
    let dataDir: string

    beforeAll(async () => {
      dataDir = mkdtempSync(path.join(os.tmpdir(), 'view-link-gateway-'))
      short = await launchGateway(world.sandbox.url, dataDir, { SESSION_QR_LIFETIME_MS: '8000' })
    }, 120_000)
    afterAll(async () => {
      await short?.proc.stop()
      if (dataDir) rmSync(dataDir, { recursive: true, force: true })
    })

    it('stops at the end of the QR window', async () => {
      const session = await short.createSession()
      const { token, expiresAt } = await viewLink(short, session)
      expect(Date.parse(expiresAt)).toBeLessThanOrEqual(Date.now() + 8_000)
      expect((await short.raw('GET', '/session/qr', { 'view-token': token })).status).toBe(200)
      await new Promise(r => setTimeout(r, Math.max(0, Date.parse(expiresAt) - Date.now()) + 200))
      expect(await short.raw('GET', '/session/qr', { 'view-token': token })).toMatchObject(GONE)
    }, 120_000)
  })
})
