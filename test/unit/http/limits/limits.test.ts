/**
 * Limits at the HTTP edge: TEXT_MAX_CHARS (400 naming the limit), the per-session send rate (429 with
 * Retry-After and the wait in the message, shared by /message, /status and /typing, one bucket per session),
 * and a full server (503 from POST /session with its message).
 */
import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { TokenBuckets } from '../../../../src/http/limits/token-bucket.js'
import { GatewayError } from '../../../../src/protocol/errors.js'
import { expectError } from '../../../support/expect-error.js'
import { makeApp } from '../../../support/fakes/fake-system.js'

const PHONE = '5511999999999'
const IMAGE = { url: 'https://media.test/a.jpg', mimetype: 'image/jpeg' }

describe('TEXT_MAX_CHARS', () => {
  const t = makeApp({ TEXT_MAX_CHARS: '10' })
  const post = (route: string, body: object) => request(t.app).post(route).set(t.auth).send(body)

  it('accepts a text of exactly the limit, counted in UTF-16 units', async () => {
    expect((await post('/message', { phone: PHONE, type: 'text', text: 'a'.repeat(10) })).status).toBe(200)
    expect((await post('/message', { phone: PHONE, type: 'text', text: '😀'.repeat(5) })).status).toBe(200)
  })

  it('refuses a longer text, a longer caption and a longer status with a 400 naming the limit', async () => {
    const tooLong = 'a'.repeat(11)
    const before = t.system.commands.length
    for (const [route, body] of [
      ['/message', { phone: PHONE, type: 'text', text: tooLong }],
      ['/message', { phone: PHONE, type: 'image', image: IMAGE, text: tooLong }],
      ['/message', { phone: PHONE, type: 'text', text: '😀'.repeat(6) }],
      ['/status', { type: 'text', text: tooLong }],
      ['/status', { type: 'image', image: IMAGE, text: tooLong }],
    ] as const) {
      expectError(await post(route, body), 400, 'text must be shorter than or equal to 10 characters')
    }
    expect(t.system.commands.length).toBe(before) // nothing reached a session
  })

  it("defaults to 65,536, the platform's own cap", () => {
    expect(makeApp().settings.TEXT_MAX_CHARS).toBe(65_536)
  })
})

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

describe('TokenBuckets', () => {
  it('refills at the rate, never above the burst, and says how long until the next token', () => {
    let now = 0
    const buckets = new TokenBuckets({ perSecond: 2, burst: 2, now: () => now })
    expect([buckets.take('a'), buckets.take('a')]).toEqual([0, 0])
    expect(buckets.take('a')).toBe(500)
    now = 250
    expect(buckets.take('a')).toBe(250)
    now = 500
    expect(buckets.take('a')).toBe(0)
    now = 60_000
    expect([buckets.take('a'), buckets.take('a'), buckets.take('a')]).toEqual([0, 0, 500])
    expect(buckets.take('b')).toBe(0)
  })
})

describe('POST /session on a full server', () => {
  it('passes the 503 through with its message and a Retry-After', async () => {
    const t = makeApp()
    t.system.onCreate = async () => {
      throw new GatewayError('SESSIONS_FULL', { max: 2 })
    }
    const res = await request(t.app).post('/session')
    expectError(res, 503, 'session limit reached (2 sessions on this server), retry later')
    expect(res.headers['retry-after']).toBeDefined()
  })
})
