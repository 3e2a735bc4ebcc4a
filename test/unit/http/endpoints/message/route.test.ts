/**
 * POST /message (src/http/endpoints/message/route.ts) on the fake session system: each type reaches the system as
 * the protocol types say, and the destination's forms. What the schema refuses is ./schema.test.ts.
 */
import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { GatewayError } from '../../../../../src/protocol/errors.js'
import { expectError } from '../../../../support/expect-error.js'
import { keys, makeApp } from '../../../../support/fakes/fake-system.js'
import {
  AUDIO,
  CONTACT,
  DOCUMENT,
  IMAGE,
  LOCATION,
  PHONE,
  sendMessage as send,
  VIDEO,
} from '../../../../support/message-bodies.js'

describe('POST /message: each type reaches the system exactly as the protocol types say', () => {
  const cases: [string, object, object][] = [
    ['text', { type: 'text', text: 'hello' }, { type: 'text', text: 'hello' }],
    ['image', { type: 'image', image: IMAGE }, { type: 'image', image: IMAGE }],
    [
      'image with caption and thumbnail',
      { type: 'image', text: 'cap', image: { ...IMAGE, thumbnail: 'https://t.test/t.jpg' } },
      { type: 'image', text: 'cap', image: { ...IMAGE, thumbnail: 'https://t.test/t.jpg' } },
    ],
    [
      'image with empty thumbnail and caption',
      { type: 'image', text: '', image: { ...IMAGE, thumbnail: '' } },
      { type: 'image', image: IMAGE },
    ],
    ['video', { type: 'video', video: VIDEO, text: 'watch' }, { type: 'video', video: VIDEO, text: 'watch' }],
    ['audio (caption ignored)', { type: 'audio', audio: AUDIO, text: 'ignored' }, { type: 'audio', audio: AUDIO }],
    [
      'document',
      { type: 'document', document: DOCUMENT, text: 'the doc' },
      { type: 'document', document: DOCUMENT, text: 'the doc' },
    ],
    [
      'location',
      { type: 'location', location: { ...LOCATION, name: 'Sé', address: 'Praça da Sé' } },
      { type: 'location', location: { ...LOCATION, name: 'Sé', address: 'Praça da Sé' } },
    ],
    [
      'location, null optional fields',
      { type: 'location', location: { ...LOCATION, name: null } },
      { type: 'location', location: LOCATION },
    ],
    [
      'contact (phone normalised)',
      { type: 'contact', contact: CONTACT },
      { type: 'contact', contact: { name: 'Bob', phone: '14155550100' } },
    ],
  ]
  it.each(cases)('%s', async (_name, body, content) => {
    const { res, system } = await send({ phone: PHONE, ...body })
    expect(res.status).toBe(200)
    expect(res.body).toStrictEqual({ messageId: 'MSG1' })
    expect(system.commands).toHaveLength(1)
    expect(system.commands[0]?.id).toBe('sess-1')
    expect(system.last()).toStrictEqual({ type: 'sendMessage', destination: { kind: 'phone', phone: PHONE }, content })
  })

  it('ignores unknown fields everywhere and never forwards them', async () => {
    const { res, system } = await send({
      phone: PHONE,
      type: 'image',
      image: { ...IMAGE, evil: 1 },
      video: VIDEO,
      extra: { a: 1 },
      __proto__x: 2,
    })
    expect(res.status).toBe(200)
    expect(system.last()).toStrictEqual({
      type: 'sendMessage',
      destination: { kind: 'phone', phone: PHONE },
      content: { type: 'image', image: IMAGE },
    })
  })

  it('answers exactly { messageId } even when the system reply carries more', async () => {
    const t = makeApp()
    t.system.onRun = () => ({ messageId: 'M9', key: { remoteJid: 'x' } })
    const res = await request(t.app).post('/message').set(t.auth).send({ phone: PHONE, type: 'text', text: 'x' })
    expect(keys(res.body)).toEqual(['messageId'])
    expect(res.body.messageId).toBe('M9')
  })

  it('passes media download failures through', async () => {
    const t = makeApp()
    t.system.onRun = () => {
      throw new GatewayError('MEDIA_DOWNLOAD_FAILED', { detail: '404 Not Found' })
    }
    const res = await request(t.app).post('/message').set(t.auth).send({ phone: PHONE, type: 'image', image: IMAGE })
    expectError(res, 500, 'error parser file from url 404 Not Found')
  })
})

describe('POST /message: destination', () => {
  const destinationOf = async (fields: object) => {
    const { res, system } = await send({ ...fields, type: 'text', text: 'x' })
    return { res, destination: (system.last() as { destination?: unknown } | undefined)?.destination }
  }

  it('answers 400 invalid phone, group or newsletter without a destination', async () => {
    for (const fields of [{}, { phone: '' }, { phone: null, group: '', newsletter: null }]) {
      expectError((await destinationOf(fields)).res, 400, 'invalid phone, group or newsletter')
    }
  })

  it('prefers group, then newsletter, then phone', async () => {
    const group = '120363000000000001@g.us'
    const newsletter = '120363000000000002@newsletter'
    expect((await destinationOf({ phone: PHONE, newsletter, group })).destination).toStrictEqual({
      kind: 'group',
      jid: group,
    })
    expect((await destinationOf({ phone: PHONE, newsletter })).destination).toStrictEqual({
      kind: 'channel',
      jid: newsletter,
    })
    expect((await destinationOf({ phone: PHONE, group: '' })).destination).toStrictEqual({
      kind: 'phone',
      phone: PHONE,
    })
  })

  it('normalises phone numbers to digits', async () => {
    const cases: [string, string][] = [
      ['+55 (11) 99999-9999', '5511999999999'],
      ['55.11.99999.9999', '5511999999999'],
      [' +1 415 555 0100 ', '14155550100'],
      ['123456', '123456'],
      ['123456789012345', '123456789012345'],
    ]
    for (const [phone, digits] of cases) {
      expect((await destinationOf({ phone })).destination).toStrictEqual({ kind: 'phone', phone: digits })
    }
  })

  it('refuses phones that are not 6-15 digits after normalisation, and non-string phones', async () => {
    for (const phone of [
      '12345',
      '1234567890123456',
      '55 11 abc',
      '++5511999999999',
      '5511999999999@s.whatsapp.net',
      5511999999999,
      ['5511999999999'],
    ]) {
      expectError((await destinationOf({ phone })).res, 400, 'invalid phone, group or newsletter')
    }
  })

  it('refuses a malformed group or newsletter, without falling back to a valid phone', async () => {
    for (const fields of [
      { group: '1203@newsletter', phone: PHONE },
      { group: '@g.us' },
      { group: 'a b@g.us' },
      { newsletter: '1203@g.us', phone: PHONE },
      { newsletter: 42 },
    ]) {
      expectError((await destinationOf(fields)).res, 400, 'invalid phone, group or newsletter')
    }
  })

  it('reports the destination line first, then the other failing rules', async () => {
    const { res } = await send({ type: 'image', image: { url: 'ftp://x/y' } })
    expectError(
      res,
      400,
      'invalid phone, group or newsletter\nimage.url must be an http or https URL\nimage.mimetype should not be empty',
    )
    expectError(
      (await send({ phone: 'x', type: 'sticker' })).res,
      400,
      'invalid phone, group or newsletter\ntype must be one of the following values: text, image, video, audio, document, location, contact',
    )
  })
})
