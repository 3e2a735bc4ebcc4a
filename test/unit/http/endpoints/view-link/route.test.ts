/**
 * POST /session/view-link and GET /session/qr in-process (docs/api.md: "QR page"): the link carries a token, not the
 * secret; the token shows the QR and works on no API endpoint; it stops when the session pairs, is reset or deleted.
 */
import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { expectError } from '../../../../support/expect-error.js'
import { makeApp, snapshotFor } from '../../../../support/fakes/fake-system.js'
import { parked, sent, servedApps } from '../../../../support/waiting-requests.js'

const serve = servedApps()

/** A test app holding one unpaired session (awaiting its QR) besides the default connected one. */
function withUnpaired(env: NodeJS.ProcessEnv = {}) {
  const t = makeApp(env)
  const qrDeadline = Date.now() + 120_000
  const unpaired = t.system.add(
    'unpaired-1',
    'secret-unpaired',
    snapshotFor('unpaired-1', { qrcode: 'UVJQTkc=', qrDeadline }),
  )
  return { ...t, unpaired: { id: unpaired.id, 'session-id': unpaired.sessionId }, qrDeadline }
}

const tokenOf = (url: string) => new URLSearchParams(new URL(url).hash.slice(1)).get('view')!

describe('POST /session/view-link', () => {
  it('answers a link to the QR page with a view token (not the secret) that expires with the QR window', async () => {
    const { app, unpaired, qrDeadline } = withUnpaired()
    const res = await request(app).post('/session/view-link').set(unpaired).set('host', 'gw.example:8080')
    expect(res.status).toBe(200)
    expect(Object.keys(res.body).sort()).toEqual(['expiresAt', 'url'])
    expect(res.headers['cache-control']).toBe('no-store')
    const url = new URL(res.body.url)
    expect(`${url.origin}${url.pathname}${url.search}`).toBe('http://gw.example:8080/')
    const token = tokenOf(res.body.url)
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/) // 192 random bits
    expect(res.body.url).not.toContain(unpaired['session-id'])
    expect(res.body.url).not.toContain(unpaired.id)
    expect(res.body.expiresAt).toBe(new Date(qrDeadline).toISOString())
    // every link is new
    const again = await request(app).post('/session/view-link').set(unpaired)
    expect(tokenOf(again.body.url)).not.toBe(token)
  })

  it('refuses a Host that names no address a link could point to, unless PUBLIC_URL names it', async () => {
    const { app, unpaired } = withUnpaired()
    const refused = await request(app).post('/session/view-link').set(unpaired).set('host', 'user@gw.example/x')
    expectError(refused, 400, 'the Host header names no address a link can point to (set PUBLIC_URL)')
    const fixed = withUnpaired({ PUBLIC_URL: 'https://qr.example.com' })
    const linked = await request(fixed.app).post('/session/view-link').set(fixed.unpaired).set('host', 'user@gw/x')
    expect(linked.body.url).toMatch(/^https:\/\/qr\.example\.com\/#view=/)
  })

  it('uses PUBLIC_URL for the link when set', async () => {
    const { app, unpaired } = withUnpaired({ PUBLIC_URL: 'https://qr.example.com/' })
    const res = await request(app).post('/session/view-link').set(unpaired)
    expect(res.body.url).toMatch(/^https:\/\/qr\.example\.com\/#view=[A-Za-z0-9_-]{32}$/)
  })

  it('needs the session headers like every endpoint, and a session still awaiting its QR', async () => {
    const { app, auth, unpaired } = withUnpaired()
    expectError(await request(app).post('/session/view-link'), 400, 'invalid header')
    expectError(
      await request(app)
        .post('/session/view-link')
        .set({ ...unpaired, 'session-id': 'wrong' }),
      404,
      'session not found',
    )
    expectError(
      await request(app).post('/session/view-link').set(auth),
      409,
      'session is already paired; there is no QR to show',
    )
  })
})

describe('GET /session/qr', () => {
  it('shows the QR to the token, and nothing else', async () => {
    const { app, unpaired } = withUnpaired()
    const token = tokenOf((await request(app).post('/session/view-link').set(unpaired)).body.url)
    const res = await request(app).get('/session/qr').set('view-token', token)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ qrcode: 'UVJQTkc=', expiresAt: expect.any(String), pairingCode: null })
    expect(res.headers['cache-control']).toBe('no-store')
    expectError(await request(app).get('/session/qr'), 400, 'invalid header')
    expectError(
      await request(app).get('/session/qr').set('view-token', 'x'.repeat(32)),
      404,
      'view link not found or expired',
    )
    // the session's own credentials are no view token
    expectError(
      await request(app).get('/session/qr').set('view-token', unpaired['session-id']),
      404,
      'view link not found or expired',
    )
  })

  it('shows a pending pairing code with its expiry, and no longer once it expired', async () => {
    const { app, system, unpaired } = withUnpaired()
    const token = tokenOf((await request(app).post('/session/view-link').set(unpaired)).body.url)
    const entry = system.sessions.get(unpaired.id)!
    const expiresAt = Date.now() + 60_000
    entry.snapshot = { ...entry.snapshot, pairingCode: { code: 'ABCD-EFGH', expiresAt } }
    const res = await request(app).get('/session/qr').set('view-token', token)
    expect(res.body).toEqual({
      qrcode: 'UVJQTkc=',
      expiresAt: expect.any(String),
      pairingCode: { code: 'ABCD-EFGH', expiresAt: new Date(expiresAt).toISOString() },
    })
    entry.snapshot = { ...entry.snapshot, pairingCode: { code: 'ABCD-EFGH', expiresAt: Date.now() - 1 } }
    expect((await request(app).get('/session/qr').set('view-token', token)).body.pairingCode).toBeNull()
  })

  it('the token is no API credential: as id or session-id it is an unknown session', async () => {
    const { app, system, unpaired } = withUnpaired()
    const token = tokenOf((await request(app).post('/session/view-link').set(unpaired)).body.url)
    const text = { phone: '15550000002', type: 'text', text: 'hi' }
    expectError(
      await request(app).post('/message').set({ id: token, 'session-id': token }).send(text),
      404,
      'session not found',
    )
    expectError(
      await request(app).post('/message').set({ id: unpaired.id, 'session-id': token }).send(text),
      404,
      'session not found',
    )
    expectError(
      await request(app).get('/session').set({ id: unpaired.id, 'session-id': token }),
      404,
      'session not found',
    )
    expectError(
      await request(app).delete('/session').set({ id: unpaired.id, 'session-id': token }),
      404,
      'session not found',
    )
    expectError(
      await request(app).post('/session/view-link').set({ id: unpaired.id, 'session-id': token }),
      404,
      'session not found',
    )
    expect(system.commands).toEqual([])
    expect(system.deletes).toEqual([])
  })

  it('stops with 410 once the session pairs, for good; 404 once it is reset or deleted', async () => {
    const { app, system, unpaired } = withUnpaired()
    const link = async () => tokenOf((await request(app).post('/session/view-link').set(unpaired)).body.url)
    const paired = await link()
    const entry = system.sessions.get(unpaired.id)!
    const waiting = entry.snapshot
    entry.snapshot = {
      ...waiting,
      state: 'connected',
      isConnected: true,
      generatedId: '15550000001:1@s.whatsapp.net',
      qrcode: '',
      qrDeadline: null,
    }
    expectError(
      await request(app).get('/session/qr').set('view-token', paired),
      410,
      'the session is linked; this view link no longer works',
    )
    // logged out again by the phone: a new QR window, but the old link stays dead
    entry.snapshot = waiting
    expectError(
      await request(app).get('/session/qr').set('view-token', paired),
      410,
      'the session is linked; this view link no longer works',
    )

    const reset = await link()
    expect((await request(app).post('/session/reset').set(unpaired)).status).toBe(200)
    expectError(await request(app).get('/session/qr').set('view-token', reset), 404, 'view link not found or expired')

    const deleted = await link()
    expect((await request(app).delete('/session').set(unpaired)).status).toBe(200)
    expectError(await request(app).get('/session/qr').set('view-token', deleted), 404, 'view link not found or expired')
  })

  it('with ?linkedStatus=200 a paired session answers 200 {linked: true} (what the QR page asks), other errors as they are', async () => {
    const { app, system, unpaired } = withUnpaired()
    const token = tokenOf((await request(app).post('/session/view-link').set(unpaired)).body.url)
    const qr = await request(app).get('/session/qr?linkedStatus=200').set('view-token', token)
    expect(qr.status).toBe(200)
    expect(qr.body.qrcode).toBe('UVJQTkc=')
    const entry = system.sessions.get(unpaired.id)!
    entry.snapshot = { ...entry.snapshot, state: 'connected', isConnected: true, qrcode: '', qrDeadline: null }
    const linked = await request(app).get('/session/qr?linkedStatus=200').set('view-token', token)
    expect(linked.status).toBe(200)
    expect(linked.body).toEqual({ linked: true })
    expect(linked.headers['cache-control']).toBe('no-store')
    // without it, as before; and an unknown token is still 404 with it
    expect((await request(app).get('/session/qr').set('view-token', token)).status).toBe(410)
    expect((await request(app).get('/session/qr?linkedStatus=410').set('view-token', token)).status).toBe(410)
    expectError(
      await request(app).get('/session/qr?linkedStatus=200').set('view-token', 'no-such-token'),
      404,
      'view link not found or expired',
    )
  })

  it('with ?linkedStatus=200 (the QR page), a wait that ends with the pairing answers 200 {linked: true}', async () => {
    const t = await serve()
    const s = t.system.add('s-qr', 'secret-qr', { isConnected: false, qrcode: 'QR1', qrDeadline: Date.now() + 60_000 })
    const { token } = t.system.createViewLink(s.id)
    const first = await request(t.server).get('/session/qr?linkedStatus=200').set('view-token', token)
    const pairing = sent(
      request(t.server)
        .get('/session/qr?linkedStatus=200&wait=30')
        .set('view-token', token)
        .set('if-none-match', first.headers.etag!),
    )
    await parked(t)
    t.system.update(s.id, { qrcode: '', isConnected: true, qrDeadline: null, generatedId: '1555:1@s.whatsapp.net' })
    const answer = await pairing
    expect(answer.status).toBe(200)
    expect(answer.body).toEqual({ linked: true })
  })
})
