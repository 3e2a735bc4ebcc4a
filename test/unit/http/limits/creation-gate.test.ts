/**
 * @module test/unit/http/limits/creation-gate
 * CREATE_SESSION_TOKEN: unset, POST /session stays open (the spec's behaviour); set, it needs
 * `authorization: Bearer <token>` and answers 401 otherwise, without creating anything or logging the token.
 * Other endpoints keep authenticating with id + session-id only.
 */
import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { loadSettings } from '../../../../src/gateway-settings.js'
import { expectError } from '../../../support/expect-error.js'
import { makeApp } from '../../../support/fakes/fake-system.js'

const TOKEN = 'tok-3f9c1a7be45d46a0b1c2'
const UNAUTHORIZED = 'missing or wrong bearer token'

describe('CREATE_SESSION_TOKEN', () => {
  it('unset: POST /session needs no header', async () => {
    const { app } = makeApp()
    expect((await request(app).post('/session')).status).toBe(200)
  })

  it('set: the right bearer token creates a session (scheme case-insensitive)', async () => {
    const { app, system } = makeApp({ CREATE_SESSION_TOKEN: TOKEN })
    const res = await request(app).post('/session').set('authorization', `Bearer ${TOKEN}`)
    expect(res.status).toBe(200)
    expect(system.sessions.has(res.body.id)).toBe(true)
    expect((await request(app).post('/session').set('authorization', `bearer ${TOKEN}`)).status).toBe(200)
  })

  it.each([
    ['no header', undefined],
    ['a wrong token', 'Bearer tok-3f9c1a7be45d46a0b1c3'],
    ['a prefix of the token', `Bearer ${TOKEN.slice(0, -1)}`],
    ['the token with more after it', `Bearer ${TOKEN}x`],
    ['another scheme', `Basic ${TOKEN}`],
    ['the bare token', TOKEN],
    ['an empty bearer', 'Bearer '],
  ])('set: %s is 401 and creates nothing', async (_name, header) => {
    const { app, system, logs } = makeApp({ CREATE_SESSION_TOKEN: TOKEN })
    const before = system.sessions.size
    const req = request(app).post('/session')
    const res = await (header === undefined ? req : req.set('authorization', header))
    expectError(res, 401, UNAUTHORIZED)
    expect(res.headers['www-authenticate']).toBe('Bearer')
    expect(system.sessions.size).toBe(before)
    expect(JSON.stringify(logs)).not.toContain(TOKEN.slice(4))
  })

  it('set: other endpoints still use id + session-id, not the token', async () => {
    const { app, auth } = makeApp({ CREATE_SESSION_TOKEN: TOKEN })
    expect((await request(app).get('/session').set(auth)).status).toBe(200)
    expectError(await request(app).get('/session').set('authorization', `Bearer ${TOKEN}`), 400, 'invalid header')
  })

  it('a token shorter than 16 characters is a start-up error; an empty one means unset', () => {
    expect(() => loadSettings({ CREATE_SESSION_TOKEN: 'short' })).toThrow(
      'CREATE_SESSION_TOKEN: must be at least 16 characters (use a long random value)',
    )
    expect(loadSettings({ CREATE_SESSION_TOKEN: '' }).CREATE_SESSION_TOKEN).toBeUndefined()
  })

  it('a token with whitespace is a start-up error: no `Bearer` header could ever carry it', async () => {
    for (const token of [
      'tok-3f9c1a7b e45d46a0',
      ' tok-3f9c1a7be45d46a0',
      'tok-3f9c1a7be45d46a0\n',
      'tok-3f9c1a7be45d\t46a0',
    ]) {
      expect(() => loadSettings({ CREATE_SESSION_TOKEN: token }), JSON.stringify(token)).toThrow(
        `invalid setting CREATE_SESSION_TOKEN: must not contain whitespace (a bearer token is one word), got a value of ${token.length} characters`,
      )
    }
  })
})
