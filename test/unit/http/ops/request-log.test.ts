import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { makeApp } from '../../../support/fakes/fake-system.js'

const requestLines = (logs: Record<string, unknown>[]) => logs.filter(l => l.msg === 'request')

describe('request log', () => {
  it('writes one line per request with the request id, route pattern, status, duration and the session id', async () => {
    const { app, auth, logs } = makeApp()
    const res = await request(app).get('/group/120363000000000001@g.us').set(auth)
    expect(res.status).toBe(200)
    const lines = requestLines(logs)
    expect(lines).toHaveLength(1)
    const line = lines[0]!
    expect(line).toMatchObject({
      reqId: res.headers['x-request-id'],
      method: 'GET',
      route: '/group/:groupId',
      status: 200,
      session: auth.id,
      path: '/group/120363000000000001@g.us',
    })
    expect(typeof line.durationMs).toBe('number')
    expect(line.level).toBe(30)
  })

  it('never logs the session-id, not even on errors or on a wrong secret', async () => {
    const { app, auth, logs, system } = makeApp()
    system.onRun = () => {
      throw new Error('boom')
    }
    await request(app).post('/message').set(auth).send({ phone: '15550000002', type: 'text', text: 'hi' })
    await request(app).get('/session').set({ id: auth.id, 'session-id': 'wrong-secret-value' })
    await request(app).get('/session').set(auth)
    expect(requestLines(logs).map(l => l.status)).toEqual([500, 404, 200])
    const all = JSON.stringify(logs)
    expect(all).toContain(auth.id)
    expect(all).not.toContain(auth['session-id'])
    expect(all).not.toContain('wrong-secret-value')
  })

  it('logs the pages and their assets (the QR page, /docs) at debug, like the probes', async () => {
    const { app, logs } = makeApp()
    for (const page of ['/', '/qr-page/script.js', '/docs', '/docs/assets/swagger-ui-bundle.js', '/openapi.json']) {
      await request(app).get(page)
    }
    await request(app).post('/session')
    expect(requestLines(logs).map(l => [l.path, l.level])).toEqual([
      ['/', 20],
      ['/qr-page/script.js', 20],
      ['/docs', 20],
      ['/docs/assets/swagger-ui-bundle.js', 20],
      ['/openapi.json', 20],
      ['/session', 30],
    ])
  })

  it('keeps a sane incoming x-request-id and replaces an unsafe one', async () => {
    const { app, logs } = makeApp()
    const kept = await request(app).get('/healthz').set('x-request-id', 'proxy-42.a:b')
    expect(kept.headers['x-request-id']).toBe('proxy-42.a:b')
    const replaced = await request(app).get('/healthz').set('x-request-id', 'a"} {"forged": 1')
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/)
    const ids = requestLines(logs).map(l => l.reqId)
    expect(ids).toEqual(['proxy-42.a:b', replaced.headers['x-request-id']])
  })

  it('logs successful GET /session polls at debug and everything else at info or warn; never a query string', async () => {
    const { app, auth, logs, system } = makeApp()
    await request(app).get('/session').set(auth)
    await request(app).get('/session').set({ id: auth.id, 'session-id': 'wrong' })
    await request(app).get('/group/120363000000000001@g.us?token=abc').set(auth)
    system.onRun = () => {
      throw new Error('boom')
    }
    await request(app).post('/message').set(auth).send({ phone: '15550000002', type: 'text', text: 'hi' })
    expect(requestLines(logs).map(l => [l.route, l.status, l.level])).toEqual([
      ['/session', 200, 20],
      ['/session', 404, 30],
      ['/group/:groupId', 200, 30],
      ['/message', 500, 40],
    ])
    expect(requestLines(logs)[2]!.path).toBe('/group/120363000000000001@g.us')
    expect(JSON.stringify(logs)).not.toContain('token=abc')
  })

  it("logs /readyz's 503 at debug: it is how a restarting gateway answers the probe, not a failure", async () => {
    const { app, logs, system } = makeApp()
    const ops = { sessionStates: () => ({}), shardStats: () => [], counters: () => [], loopDelays: () => new Map() }
    Object.assign(system, { ops: { ...ops, readiness: () => ({ ready: false, status: 'starting' }) } })
    expect((await request(app).get('/readyz')).status).toBe(503)
    expect(requestLines(logs).map(l => [l.route, l.status, l.level])).toEqual([['/readyz', 503, 20]])
  })

  it('logs a request whose client hung up before the answer, marked aborted', async () => {
    const { app, auth, logs, system } = makeApp()
    system.onRun = () => new Promise(resolve => setTimeout(() => resolve(null), 400))
    const hungUp = await request(app)
      .post('/message')
      .set(auth)
      .timeout(50)
      .send({ phone: '15550000002', type: 'text', text: 'hi' })
      .then(
        () => false,
        () => true,
      )
    expect(hungUp).toBe(true)
    await new Promise(resolve => setTimeout(resolve, 600))
    expect(requestLines(logs)).toEqual([
      expect.objectContaining({ route: '/message', aborted: true, session: auth.id }),
    ])
  })

  it('cuts an invented id header to 64 characters: a 16 KB header is not 16 KB of log per request', async () => {
    const { app, logs } = makeApp()
    const huge = 'A'.repeat(12_000)
    const res = await request(app).get('/session').set({ id: huge, 'session-id': 'whatever' })
    expect(res.status).toBe(404)
    const line = requestLines(logs)[0]!
    expect(line.session).toBe(`${'A'.repeat(64)}…`)
    expect(JSON.stringify(logs)).not.toContain('A'.repeat(65))
  })

  it('logs an id of up to 64 characters as it is', async () => {
    const { app, logs } = makeApp()
    const id = 'b'.repeat(64)
    await request(app).get('/session').set({ id, 'session-id': 'whatever' })
    expect(requestLines(logs)[0]!.session).toBe(id)
  })

  it('labels unknown paths with one route, not the raw path', async () => {
    const { app, logs } = makeApp()
    await request(app).get('/no/such/path-123')
    expect(requestLines(logs)[0]).toMatchObject({ route: '(unmatched)', status: 404 })
  })
})
