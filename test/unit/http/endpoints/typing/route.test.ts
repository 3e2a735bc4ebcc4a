import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { expectError } from '../../../../support/expect-error.js'
import { makeApp } from '../../../../support/fakes/fake-system.js'

async function typing(body: object) {
  const t = makeApp()
  const res = await request(t.app).post('/typing').set(t.auth).send(body)
  return { res, system: t.system, auth: t.auth }
}

describe('POST /typing', () => {
  it('defaults to text and answers exactly { id } with the session id', async () => {
    const { res, system, auth } = await typing({ phone: '+55 11 99999-9999' })
    expect(res.status).toBe(200)
    expect(res.body).toStrictEqual({ id: auth.id })
    expect(system.last()).toStrictEqual({
      type: 'sendTyping',
      destination: { kind: 'phone', phone: '5511999999999' },
      kind: 'text',
    })
  })

  it('treats a null or empty type as the default', async () => {
    for (const type of [null, '']) {
      const { system } = await typing({ phone: '5511999999999', type })
      expect(system.last()).toMatchObject({ kind: 'text' })
    }
  })

  it('sends recording for type audio', async () => {
    const { system } = await typing({ group: '120363000000000001@g.us', type: 'audio' })
    expect(system.last()).toStrictEqual({
      type: 'sendTyping',
      destination: { kind: 'group', jid: '120363000000000001@g.us' },
      kind: 'audio',
    })
  })

  it('prefers group over phone and ignores newsletter', async () => {
    const both = await typing({ phone: '5511999999999', group: '120363000000000001@g.us', newsletter: '1@newsletter' })
    expect(both.system.last()).toMatchObject({ destination: { kind: 'group', jid: '120363000000000001@g.us' } })
    const withNewsletter = await typing({ phone: '5511999999999', newsletter: '1@newsletter' })
    expect(withNewsletter.system.last()).toMatchObject({ destination: { kind: 'phone', phone: '5511999999999' } })
  })

  it('answers 400 invalid phone or group without a usable destination', async () => {
    for (const body of [
      {},
      { newsletter: '1@newsletter' },
      { phone: '123' },
      { group: 'nope' },
      { phone: 5511999999999 },
      { group: '1@newsletter', phone: '5511999999999' },
    ]) {
      const { res, system } = await typing(body)
      expectError(res, 400, 'invalid phone or group')
      expect(system.commands).toHaveLength(0)
    }
  })

  it('validates type, reporting the destination line first', async () => {
    expectError(
      (await typing({ phone: '5511999999999', type: 'video' })).res,
      400,
      'type must be one of the following values: text, audio',
    )
    expectError(
      (await typing({ type: 'video' })).res,
      400,
      'invalid phone or group\ntype must be one of the following values: text, audio',
    )
  })
})
