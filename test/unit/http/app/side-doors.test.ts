/**
 * @module test/unit/http/app/side-doors
 * The endpoints that answer without a session's credentials, and how an operator closes them: METRICS_TOKEN puts
 * `GET /metrics` behind a bearer token (401 in the spec's error shape without it, compared like
 * CREATE_SESSION_TOKEN), API_DOCS=false takes `/openapi.json` and `/docs` away (404 like any unknown path). The
 * probes stay open: orchestrators call them without credentials.
 */
import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { loadSettings } from '../../../../src/gateway-settings.js'
import { REFERENCE_PATHS } from '../../../../src/http/openapi/docs-page.js'
import { expectError } from '../../../support/expect-error.js'
import { makeApp } from '../../../support/fakes/fake-system.js'

const TOKEN = 'scrape-7d1e0c4b9a2f4e6b8c31'
const UNAUTHORIZED = 'missing or wrong bearer token'

describe('METRICS_TOKEN', () => {
  it('unset: anyone can scrape /metrics (the default)', async () => {
    const { app } = makeApp()
    const res = await request(app).get('/metrics')
    expect(res.status).toBe(200)
    expect(res.text).toContain('nodejs_version_info')
  })

  it('set: the right bearer token scrapes', async () => {
    const { app } = makeApp({ METRICS_TOKEN: TOKEN })
    const res = await request(app).get('/metrics').set('authorization', `Bearer ${TOKEN}`)
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toContain('text/plain')
    expect(res.text).toContain('nodejs_version_info')
  })

  it.each([
    ['no header', undefined],
    ['a wrong token', `Bearer ${TOKEN.slice(0, -1)}x`],
    ['the token with more after it', `Bearer ${TOKEN}x`],
    ['another scheme', `Basic ${TOKEN}`],
    ['the bare token', TOKEN],
  ])('set: %s is 401 in the error shape and tells nothing', async (_name, header) => {
    const { app, logs } = makeApp({ METRICS_TOKEN: TOKEN })
    const req = request(app).get('/metrics')
    const res = await (header === undefined ? req : req.set('authorization', header))
    expectError(res, 401, UNAUTHORIZED)
    expect(res.headers['www-authenticate']).toBe('Bearer')
    expect(res.text).not.toContain('nodejs')
    expect(JSON.stringify(logs)).not.toContain(TOKEN.slice(7))
  })

  it('set: the probes and the API are unchanged', async () => {
    const { app, auth } = makeApp({ METRICS_TOKEN: TOKEN })
    expect((await request(app).get('/healthz')).status).toBe(200)
    expect((await request(app).get('/session').set(auth)).status).toBe(200)
    expect((await request(app).post('/session')).status).toBe(200)
  })

  it('the two tokens are separate: CREATE_SESSION_TOKEN does not open /metrics', async () => {
    const create = 'create-0b8e5f2a6c4d4e1f9a7b'
    const { app } = makeApp({ METRICS_TOKEN: TOKEN, CREATE_SESSION_TOKEN: create })
    expectError(await request(app).get('/metrics').set('authorization', `Bearer ${create}`), 401, UNAUTHORIZED)
    expectError(await request(app).post('/session').set('authorization', `Bearer ${TOKEN}`), 401, UNAUTHORIZED)
  })

  it('a short token or one with whitespace stops the start, without echoing it', () => {
    expect(() => loadSettings({ METRICS_TOKEN: 'short' })).toThrow(
      'invalid setting METRICS_TOKEN: must be at least 16 characters (use a long random value), got a value of 5 characters',
    )
    expect(() => loadSettings({ METRICS_TOKEN: 'scrape token with spaces' })).toThrow(
      'invalid setting METRICS_TOKEN: must not contain whitespace (a bearer token is one word), got a value of 24 characters',
    )
    expect(loadSettings({ METRICS_TOKEN: '' }).METRICS_TOKEN).toBeUndefined()
  })
})

describe('API_DOCS', () => {
  it('default: /openapi.json and /docs are served', async () => {
    const { app } = makeApp()
    expect(loadSettings({}).API_DOCS).toBe(true)
    expect((await request(app).get('/openapi.json')).status).toBe(200)
    expect((await request(app).get('/docs')).status).toBe(200)
  })

  it('false: /openapi.json, /docs and its assets are 404 like any unknown path', async () => {
    const { app, auth } = makeApp({ API_DOCS: 'false' })
    for (const path of REFERENCE_PATHS) expectError(await request(app).get(path), 404, 'not found')
    expect((await request(app).get('/session').set(auth)).status).toBe(200)
  })
})
