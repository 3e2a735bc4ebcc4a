/**
 * TEXT_MAX_CHARS (src/http/limits/text-length.ts): a text, caption or status longer than the limit is a 400 naming it.
 */
import request from 'supertest'
import { describe, expect, it } from 'vitest'
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
