import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { makeApp } from '../../../support/fakes/fake-system.js'
import { has, parseProm, sumOf } from '../../../support/prom-text.js'

describe('GET /metrics (HTTP side)', () => {
  it('counts requests by method, route pattern and status, never by raw path, and skips probes and scrapes', async () => {
    const { app, auth } = makeApp()
    await request(app).get('/group/120363000000000001@g.us').set(auth)
    await request(app).get('/group/120363000000000002@g.us').set(auth)
    await request(app).get('/group/120363000000000002@g.us').set({ id: 'nobody', 'session-id': 'x' })
    await request(app).get('/random/path/42')
    await request(app).get('/healthz')
    await request(app).get('/readyz')
    await request(app).get('/metrics')

    const res = await request(app).get('/metrics')
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toContain('text/plain')
    const m = parseProm(res.text)
    const count = 'gateway_http_request_duration_seconds_count'
    expect(sumOf(m, count, { method: 'GET', route: '/group/:groupId', status_code: '200' })).toBe(2)
    expect(sumOf(m, count, { method: 'GET', route: '/group/:groupId', status_code: '404' })).toBe(1)
    expect(sumOf(m, count, { route: '(unmatched)', status_code: '404' })).toBe(1)
    expect(sumOf(m, count)).toBe(4)
    expect(m.some(s => s.labels.route?.includes('120363'))).toBe(false)
    expect(has(m, 'gateway_http_request_duration_seconds_bucket', { route: '/group/:groupId', le: '+Inf' })).toBe(true)
    expect(has(m, 'process_cpu_user_seconds_total')).toBe(true)
    // The fake system has no actor system behind it: no session or shard series.
    expect(has(m, 'gateway_sessions')).toBe(false)
  })

  it('does not count the pages and their assets (the QR page, /docs) as API requests', async () => {
    const { app } = makeApp()
    for (const page of [
      '/',
      '/qr-page/script.js',
      '/qr-page/style.css',
      '/docs',
      '/docs/init.js',
      '/docs/assets/swagger-ui.css',
      '/docs/assets/swagger-ui-bundle.js',
      '/docs/assets/favicon-32x32.png',
      '/docs/assets/no-such-file.js',
      '/openapi.json',
    ]) {
      await request(app).get(page)
    }
    await request(app).post('/session')
    const m = parseProm((await request(app).get('/metrics')).text)
    const count = 'gateway_http_request_duration_seconds_count'
    expect(sumOf(m, count, { route: '/session' })).toBe(1)
    expect(sumOf(m, count)).toBe(1)
  })

  it('keeps one registry per app: two apps count separately', async () => {
    const a = makeApp()
    const b = makeApp()
    await request(a.app).post('/session')
    const countIn = async (app: typeof a.app) =>
      sumOf(parseProm((await request(app).get('/metrics')).text), 'gateway_http_request_duration_seconds_count', {
        route: '/session',
      })
    expect(await countIn(a.app)).toBe(1)
    expect(await countIn(b.app)).toBe(0)
  })
})
