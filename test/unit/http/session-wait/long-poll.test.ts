/**
 * GET /session and GET /session/qr that wait, through the app on the fake session system: the ETag of every answer,
 * 304 for a client holding the current answer, a wait that ends with the change (and not with a change the answer
 * does not show), on its time-out, on a deletion, a move or shutdown; `wait` values the gateway refuses; the wait
 * bounds (429 with Retry-After, the neighbour still served); a client that hangs up freeing its slot; the log level
 * of a 304.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { expectError } from '../../../support/expect-error.js'
import { makeApp } from '../../../support/fakes/fake-system.js'
import { parked, sent, servedApps } from '../../../support/waiting-requests.js'

const serve = servedApps()

describe('GET /session: the ETag of every answer', () => {
  it("a spec client's answer is the spec's body, with an ETag that changes exactly when the body does", async () => {
    const { app, system, auth } = makeApp()
    const first = await request(app).get('/session').set(auth)
    expect(first.status).toBe(200)
    expect(Object.keys(first.body).sort()).toEqual(
      ['generatedId', 'id', 'isConnected', 'name', 'picture', 'qrcode', 'sessionId'].sort(),
    )
    expect(first.headers.etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/)
    // the body holds the secret: no shared cache may keep it, a private one must ask again
    expect(first.headers['cache-control']).toBe('private, no-cache')
    expect((await request(app).get('/session').set(auth)).headers.etag).toBe(first.headers.etag)
    system.update(auth.id, { version: 9 }) // a new snapshot showing the same: the same answer, the same ETag
    expect((await request(app).get('/session').set(auth)).headers.etag).toBe(first.headers.etag)
    system.update(auth.id, { name: 'Alice B.' })
    const second = await request(app).get('/session').set(auth)
    expect(second.body.name).toBe('Alice B.')
    expect(second.headers.etag).not.toBe(first.headers.etag)
  })

  it('If-None-Match naming the current answer is 304 at once without wait (or with wait=0), with the ETag', async () => {
    const { app, auth } = makeApp()
    const { etag } = (await request(app).get('/session').set(auth)).headers
    for (const path of ['/session', '/session?wait=0']) {
      const res = await request(app).get(path).set(auth).set('if-none-match', etag!)
      expect(res.status, path).toBe(304)
      expect(res.text, path).toBe('')
      expect(res.headers.etag, path).toBe(etag)
    }
    expect((await request(app).get('/session').set(auth).set('if-none-match', '*')).status).toBe(304)
    expect((await request(app).get('/session').set(auth).set('if-none-match', `"x", W/${etag}`)).status).toBe(304)
  })

  it('a stale ETag gets the current answer at once, without taking a wait slot', async () => {
    const t = await serve({ SESSION_WAITS_PER_PROCESS: '1' })
    const res = await request(t.server).get('/session?wait=30').set(t.auth).set('if-none-match', '"stale"')
    expect(res.status).toBe(200)
    expect(res.body.id).toBe(t.auth.id)
    expect(await t.waiting()).toBe(0)
  })
})

describe('GET /session?wait', () => {
  it('answers the change as soon as it happens, and a change the answer does not show does not end the wait', async () => {
    const t = await serve()
    const { etag } = (await request(t.server).get('/session').set(t.auth)).headers
    let answered = false
    const waiting = request(t.server)
      .get('/session?wait=30')
      .set(t.auth)
      .set('if-none-match', etag!)
      .then(res => {
        answered = true
        return res
      })
    await parked(t)
    t.system.update(t.auth.id, { state: 'reconnecting', version: 50 }) // not in the answer
    expect(await t.waiting()).toBe(1)
    expect(answered).toBe(false)
    t.system.update(t.auth.id, { isConnected: false, name: '' })
    const res = await waiting
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ id: t.auth.id, isConnected: false, name: '' })
    expect(res.headers.etag).not.toBe(etag)
    expect(await t.waiting()).toBe(0)
  })

  it('ends with 304 and the same ETag when nothing changed; a longer wait is cut to SESSION_WAIT_MAX_SECONDS', async () => {
    const t = await serve({ SESSION_WAIT_MAX_SECONDS: '1' })
    const { etag } = (await request(t.server).get('/session').set(t.auth)).headers
    const res = await request(t.server).get('/session?wait=3600').set(t.auth).set('if-none-match', etag!)
    expect(res.status).toBe(304)
    expect(res.headers.etag).toBe(etag)
    expect(await t.waiting()).toBe(0)
  })

  it('SESSION_WAIT_MAX_SECONDS=0 turns waiting off: 304 at once', async () => {
    const t = await serve({ SESSION_WAIT_MAX_SECONDS: '0' })
    const { etag } = (await request(t.server).get('/session').set(t.auth)).headers
    expect((await request(t.server).get('/session?wait=30').set(t.auth).set('if-none-match', etag!)).status).toBe(304)
  })

  it('a session deleted while waited on answers 404 session not found', async () => {
    const t = await serve()
    const { etag } = (await request(t.server).get('/session').set(t.auth)).headers
    const waiting = sent(request(t.server).get('/session?wait=30').set(t.auth).set('if-none-match', etag!))
    await parked(t)
    await t.system.deleteSession(t.auth.id)
    expectError(await waiting, 404, 'session not found')
  })

  it('a session that moves to another node ends its waits with 304: the client asks again, wherever it is', async () => {
    const t = await serve()
    const { etag } = (await request(t.server).get('/session').set(t.auth)).headers
    const waiting = sent(request(t.server).get('/session?wait=30').set(t.auth).set('if-none-match', etag!))
    await parked(t)
    t.system.sessions.delete(t.auth.id) // gone from this node's cache
    t.system.tell({ type: 'moved', id: t.auth.id })
    const res = await waiting
    expect(res.status).toBe(304)
    expect(res.headers.etag).toBe(etag)
  })

  it('shutdown answers every wait at once and closes its connection; later waits answer at once', async () => {
    const t = await serve()
    const { etag } = (await request(t.server).get('/session').set(t.auth)).headers
    const waiting = sent(request(t.server).get('/session?wait=30').set(t.auth).set('if-none-match', etag!))
    await parked(t)
    await t.system.close()
    const res = await waiting
    expect(res.status).toBe(304)
    expect(res.headers.connection).toBe('close')
    const later = await request(t.server).get('/session?wait=30').set(t.auth).set('if-none-match', etag!)
    expect(later.status).toBe(304)
    expect(await t.waiting()).toBe(0)
  })

  it.each([
    ['a word', 'soon'],
    ['a negative number', '-1'],
    ['a fraction', '1.5'],
    ['an exponent', '1e3'],
    ['nothing', ''],
  ])('wait as %s is 400 in the spec shape', async (_name, value) => {
    const { app, auth } = makeApp()
    const res = await request(app).get(`/session?wait=${value}`).set(auth).set('if-none-match', '*')
    expectError(res, 400, 'wait must be a whole number of seconds')
  })

  it('wait given twice is 400; the headers and the session are checked first', async () => {
    const { app, auth } = makeApp()
    expectError(
      await request(app).get('/session?wait=1&wait=2').set(auth),
      400,
      'wait must be a whole number of seconds',
    )
    expectError(await request(app).get('/session?wait=soon'), 400, 'invalid header')
    const wrong = { id: auth.id, 'session-id': 'not-the-secret' }
    expectError(await request(app).get('/session?wait=soon').set(wrong), 404, 'session not found')
  })
})

describe('the bounds of waiting requests', () => {
  it('per session: 429 with Retry-After beyond; polling still works, and the view links have their own', async () => {
    const t = await serve({ SESSION_WAITS_PER_SESSION: '1' })
    const s = t.system.add('s-qr', 'secret-qr', { isConnected: false, qrcode: 'QR1', qrDeadline: Date.now() + 60_000 })
    const auth = { id: s.id, 'session-id': s.sessionId }
    const { etag } = (await request(t.server).get('/session').set(auth)).headers
    const first = sent(request(t.server).get('/session?wait=30').set(auth).set('if-none-match', etag!))
    await parked(t)
    const refused = await request(t.server).get('/session?wait=30').set(auth).set('if-none-match', etag!)
    expectError(refused, 429, 'too many waiting requests for this session (1), retry in 2 s')
    expect(refused.headers['retry-after']).toBe('2')
    expect((await request(t.server).get('/session').set(auth)).status).toBe(200)
    // whoever holds a view link waits on its own budget: it cannot take the session's own waits, nor they its
    const { token } = t.system.createViewLink(s.id)
    const qr = await request(t.server).get('/session/qr').set('view-token', token)
    const view = sent(
      request(t.server).get('/session/qr?wait=30').set('view-token', token).set('if-none-match', qr.headers.etag!),
    )
    await parked(t, 2)
    t.system.update(s.id, { qrcode: 'QR2' })
    expect((await first).body.qrcode).toBe('QR2')
    expect((await view).body.qrcode).toBe('QR2')
  })

  it('per client: one client is refused past its bound, another client is not', async () => {
    const t = await serve({ SESSION_WAITS_PER_CLIENT: '1', TRUST_PROXY: 'true' })
    const other = t.system.add('s-2', 'secret-2')
    const etagOf = async (auth: Record<string, string>) =>
      (await request(t.server).get('/session').set(auth)).headers.etag!
    const a = { ...t.auth, 'x-forwarded-for': '198.51.100.7' }
    const b = { id: other.id, 'session-id': other.sessionId, 'x-forwarded-for': '198.51.100.7' }
    const holding = sent(
      request(t.server)
        .get('/session?wait=30')
        .set(a)
        .set('if-none-match', await etagOf(a)),
    )
    await parked(t)
    const refused = await request(t.server)
      .get('/session?wait=30')
      .set(b)
      .set('if-none-match', await etagOf(b))
    expectError(refused, 429, 'too many waiting requests from this client (1), retry in 2 s')
    const neighbour = { ...b, 'x-forwarded-for': '198.51.100.8' }
    const served = sent(
      request(t.server)
        .get('/session?wait=30')
        .set(neighbour)
        .set('if-none-match', await etagOf(b)),
    )
    await parked(t, 2)
    t.system.update(other.id, { name: 'Bob' })
    expect((await served).body.name).toBe('Bob')
    t.system.update(t.auth.id, { name: 'Ann' })
    expect((await holding).body.name).toBe('Ann')
  })

  it('per process: 429 on this server beyond SESSION_WAITS_PER_PROCESS', async () => {
    const t = await serve({ SESSION_WAITS_PER_PROCESS: '1' })
    const other = t.system.add('s-2', 'secret-2')
    const b = { id: other.id, 'session-id': other.sessionId }
    const holding = sent(
      request(t.server)
        .get('/session?wait=30')
        .set(t.auth)
        .set('if-none-match', (await request(t.server).get('/session').set(t.auth)).headers.etag!),
    )
    await parked(t)
    const etag = (await request(t.server).get('/session').set(b)).headers.etag!
    const refused = await request(t.server).get('/session?wait=30').set(b).set('if-none-match', etag)
    expectError(refused, 429, 'too many waiting requests on this server, retry in 2 s')
    t.system.update(t.auth.id, { name: 'Ann' })
    expect((await holding).status).toBe(200)
  })

  it('a client that hangs up frees its slot at once', async () => {
    const t = await serve({ SESSION_WAITS_PER_SESSION: '1' })
    const { etag } = (await request(t.server).get('/session').set(t.auth)).headers
    const { port } = t.server.address() as AddressInfo
    const req = http.get({
      port,
      host: '127.0.0.1',
      path: '/session?wait=30',
      headers: { ...t.auth, 'if-none-match': etag },
    })
    req.on('error', () => {})
    await parked(t)
    req.destroy()
    await parked(t, 0)
    // the slot is free again: the next wait gets in (and ends with the change)
    const next = sent(request(t.server).get('/session?wait=30').set(t.auth).set('if-none-match', etag!))
    await parked(t)
    t.system.update(t.auth.id, { name: 'Ann' })
    expect((await next).status).toBe(200)
  })
})

describe('GET /session/qr?wait (the QR page)', () => {
  it('answers a rotation at once, then 410 once the phone paired the session', async () => {
    const t = await serve()
    const s = t.system.add('s-qr', 'secret-qr', { isConnected: false, qrcode: 'QR1', qrDeadline: Date.now() + 60_000 })
    const { token } = t.system.createViewLink(s.id)
    const first = await request(t.server).get('/session/qr').set('view-token', token)
    expect(first.body.qrcode).toBe('QR1')
    expect(first.headers['cache-control']).toBe('no-store')
    const rotation = sent(
      request(t.server).get('/session/qr?wait=30').set('view-token', token).set('if-none-match', first.headers.etag!),
    )
    await parked(t)
    t.system.update(s.id, { qrcode: 'QR2' })
    const rotated = await rotation
    expect(rotated.status).toBe(200)
    expect(rotated.body.qrcode).toBe('QR2')
    const pairing = sent(
      request(t.server).get('/session/qr?wait=30').set('view-token', token).set('if-none-match', rotated.headers.etag!),
    )
    await parked(t)
    t.system.update(s.id, { qrcode: '', isConnected: true, qrDeadline: null, generatedId: '1555:1@s.whatsapp.net' })
    expectError(await pairing, 410, 'the session is linked; this view link no longer works')
  })
})

describe('the request log', () => {
  it('writes a 304 at debug, like a successful GET /session, and a refused wait at info', async () => {
    const t = await serve({ SESSION_WAITS_PER_SESSION: '1', SESSION_WAIT_MAX_SECONDS: '1' })
    const { etag } = (await request(t.server).get('/session').set(t.auth)).headers
    const held = sent(request(t.server).get('/session?wait=1').set(t.auth).set('if-none-match', etag!))
    await parked(t)
    await request(t.server).get('/session?wait=1').set(t.auth).set('if-none-match', etag!)
    expect((await held).status).toBe(304)
    const lines = t.logs.filter(l => l.msg === 'request' && l.route === '/session')
    const levelOf = (status: number) => lines.filter(l => l.status === status).map(l => l.level)
    expect(levelOf(304)).toEqual([20])
    expect(levelOf(429)).toEqual([30])
    expect(lines.every(l => !String(l.path).includes('?'))).toBe(true)
  })
})
