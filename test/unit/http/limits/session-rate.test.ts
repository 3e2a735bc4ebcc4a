/**
 * The per-session send rate (src/http/limits/session-rate.ts): 429 with Retry-After and the wait in the message,
 * shared by /message, /status and /typing, one bucket per session.
 */
import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { expectError } from '../../../support/expect-error.js'
import { makeApp } from '../../../support/fakes/fake-system.js'

const PHONE = '5511999999999'

describe('per-session send rate', () => {
  // 0.001 tokens a second: a spent bucket stays spent for the whole test, however slow the machine.
  const env = { SEND_RATE_PER_SECOND: '0.001', SEND_BURST: '3' }

  it('lets a burst through, then answers 429 with Retry-After and the wait in the message', async () => {
    const t = makeApp(env)
    const sends = [
      request(t.app).post('/message').set(t.auth).send({ phone: PHONE, type: 'text', text: 'one' }),
      request(t.app).post('/status').set(t.auth).send({ type: 'text', text: 'two' }),
      request(t.app).post('/typing').set(t.auth).send({ phone: PHONE, type: 'text' }),
    ]
    for (const res of await Promise.all(sends)) expect(res.status).toBe(200)
    for (const route of ['/message', '/status', '/typing']) {
      const res = await request(t.app).post(route).set(t.auth).send({ phone: PHONE, type: 'text', text: 'more' })
      // About 1000 s (one token at 0.001 a second), a little less on a slow machine; header and message agree.
      const seconds = Number(res.headers['retry-after'])
      expect(seconds).toBeGreaterThan(900)
      expectError(res, 429, `too many messages for this session, retry in ${seconds} s`)
    }
    expect(t.system.commands).toHaveLength(3) // refused sends never reached the session
  })

  it('keeps one bucket per session: a busy tenant does not slow another', async () => {
    const t = makeApp(env)
    const other = t.system.add('sess-2', 'secret-2')
    const otherAuth = { id: other.id, 'session-id': other.sessionId }
    for (let i = 0; i < 3; i++) await request(t.app).post('/typing').set(t.auth).send({ phone: PHONE, type: 'text' })
    expect((await request(t.app).post('/typing').set(t.auth).send({ phone: PHONE, type: 'text' })).status).toBe(429)
    const res = await request(t.app).post('/message').set(otherAuth).send({ phone: PHONE, type: 'text', text: 'hi' })
    expect(res.status).toBe(200)
  })

  it('checks credentials first: a wrong secret is 404, not a spent token', async () => {
    const t = makeApp({ ...env, SEND_BURST: '1' })
    const wrong = { id: t.auth.id, 'session-id': 'nope' }
    for (let i = 0; i < 3; i++) {
      expectError(await request(t.app).post('/message').set(wrong).send({}), 404, 'session not found')
    }
    expect(
      (await request(t.app).post('/message').set(t.auth).send({ phone: PHONE, type: 'text', text: 'x' })).status,
    ).toBe(200)
  })

  it('is off with SEND_RATE_PER_SECOND=0', async () => {
    const t = makeApp({ SEND_RATE_PER_SECOND: '0', SEND_BURST: '1' })
    for (let i = 0; i < 5; i++) {
      expect((await request(t.app).post('/typing').set(t.auth).send({ phone: PHONE, type: 'text' })).status).toBe(200)
    }
  })

  it('defaults to 10 a second with bursts of 50', () => {
    const { settings } = makeApp()
    expect([settings.SEND_RATE_PER_SECOND, settings.SEND_BURST]).toEqual([10, 50])
  })
})
