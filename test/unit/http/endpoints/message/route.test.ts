import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { GatewayError } from '../../../../../src/protocol/errors.js'
import { expectError } from '../../../../support/expect-error.js'
import { keys, makeApp } from '../../../../support/fakes/fake-system.js'

const PHONE = '5511999999999'
const IMAGE = { url: 'https://media.test/a.jpg', mimetype: 'image/jpeg' }
const VIDEO = { url: 'https://media.test/a.mp4', mimetype: 'video/mp4', duration: 12 }
const AUDIO = { url: 'http://media.test/a.mp3', mimetype: 'audio/mpeg', duration: 3.5 }
const DOCUMENT = { url: 'https://media.test/a.pdf', name: 'a.pdf', size: 1024, mimetype: 'application/pdf' }
const LOCATION = { latitude: -23.55, longitude: -46.63 }
const CONTACT = { name: 'Bob', phone: '+1 (415) 555-0100' }

async function send(body: unknown) {
  const t = makeApp()
  const res = await request(t.app)
    .post('/message')
    .set(t.auth)
    .send(body as object)
  return { res, system: t.system }
}

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

describe('POST /message: validation messages', () => {
  const failsWith = async (body: object, message: string) => {
    const { res, system } = await send({ phone: PHONE, ...body })
    expectError(res, 400, message)
    expect(system.commands).toHaveLength(0)
  }

  it('requires type and refuses unknown types', async () => {
    await failsWith({}, 'type should not be empty')
    await failsWith({ type: '' }, 'type should not be empty')
    await failsWith({ type: null }, 'type should not be empty')
    await failsWith(
      { type: 'sticker' },
      'type must be one of the following values: text, image, video, audio, document, location, contact',
    )
    await failsWith(
      { type: 7 },
      'type must be one of the following values: text, image, video, audio, document, location, contact',
    )
  })

  it.each(['text', 'image', 'video', 'audio', 'document', 'location', 'contact'])(
    'requires the %s field for type %s (missing, null or empty)',
    async type => {
      await failsWith({ type }, `${type} should not be empty`)
      await failsWith({ type, [type]: null }, `${type} should not be empty`)
      if (type === 'text') await failsWith({ type, text: '' }, 'text should not be empty')
    },
  )

  const REQUIRED: [string, object, string[]][] = [
    ['image', IMAGE, ['url', 'mimetype']],
    ['video', VIDEO, ['url', 'mimetype', 'duration']],
    ['audio', AUDIO, ['url', 'mimetype', 'duration']],
    ['document', DOCUMENT, ['url', 'name', 'size', 'mimetype']],
    ['location', LOCATION, ['latitude', 'longitude']],
    ['contact', CONTACT, ['name', 'phone']],
  ]
  it.each(REQUIRED)('requires every field of %s', async (type, full, fields) => {
    for (const field of fields) {
      const partial: Record<string, unknown> = { ...full }
      delete partial[field]
      await failsWith({ type, [type]: partial }, `${type}.${field} should not be empty`)
      await failsWith({ type, [type]: { ...full, [field]: null } }, `${type}.${field} should not be empty`)
    }
    await failsWith({ type, [type]: {} }, fields.map(f => `${type}.${f} should not be empty`).join('\n'))
  })

  it('refuses wrong types: number for string, string for number, scalar for object', async () => {
    await failsWith({ type: 'text', text: 5 }, 'text must be a string')
    await failsWith({ type: 'image', image: { ...IMAGE, url: 5 } }, 'image.url must be a string')
    await failsWith({ type: 'image', image: { ...IMAGE, mimetype: true } }, 'image.mimetype must be a string')
    await failsWith({ type: 'video', video: { ...VIDEO, duration: '12' } }, 'video.duration must be a number')
    await failsWith({ type: 'document', document: { ...DOCUMENT, size: '1024' } }, 'document.size must be a number')
    await failsWith(
      { type: 'location', location: { latitude: '1', longitude: 2 } },
      'location.latitude must be a number',
    )
    await failsWith({ type: 'image', image: 'https://media.test/a.jpg' }, 'image must be an object')
    await failsWith({ type: 'audio', audio: [AUDIO] }, 'audio must be an object')
    await failsWith(
      { type: 'contact', contact: { name: 1, phone: 2 } },
      'contact.name must be a string\ncontact.phone must be a string',
    )
  })

  it('refuses wrong types in optional fields when present', async () => {
    await failsWith({ type: 'image', image: IMAGE, text: 3 }, 'text must be a string')
    await failsWith({ type: 'video', video: { ...VIDEO, thumbnail: 3 } }, 'video.thumbnail must be a string')
    await failsWith(
      { type: 'location', location: { ...LOCATION, name: 1, address: {} } },
      'location.name must be a string\nlocation.address must be a string',
    )
  })

  it('requires durations and sizes greater than 0', async () => {
    await failsWith({ type: 'video', video: { ...VIDEO, duration: 0 } }, 'video.duration must be greater than 0')
    await failsWith({ type: 'audio', audio: { ...AUDIO, duration: -1 } }, 'audio.duration must be greater than 0')
    await failsWith({ type: 'document', document: { ...DOCUMENT, size: 0 } }, 'document.size must be greater than 0')
  })

  it('refuses a zero or out-of-range latitude/longitude', async () => {
    await failsWith(
      { type: 'location', location: { latitude: 0, longitude: 0 } },
      'location.latitude must not be 0\nlocation.longitude must not be 0',
    )
    await failsWith(
      { type: 'location', location: { latitude: 90.5, longitude: -180.1 } },
      'location.latitude must be between -90 and 90\nlocation.longitude must be between -180 and 180',
    )
    const { res } = await send({ phone: PHONE, type: 'location', location: { latitude: 90, longitude: -180 } })
    expect(res.status).toBe(200)
  })

  it('requires http or https media URLs', async () => {
    for (const url of ['ftp://media.test/a.jpg', 'file:///etc/passwd', 'not a url', 'javascript:alert(1)']) {
      await failsWith({ type: 'image', image: { ...IMAGE, url } }, 'image.url must be an http or https URL')
    }
    await failsWith(
      { type: 'video', video: { ...VIDEO, thumbnail: 'data:image/png;base64,AAAA' } },
      'video.thumbnail must be an http or https URL',
    )
  })

  it('requires a valid contact phone', async () => {
    await failsWith(
      { type: 'contact', contact: { name: 'Bob', phone: '12-34' } },
      'contact.phone must be a valid phone number',
    )
    await failsWith(
      { type: 'contact', contact: { name: '', phone: '' } },
      'contact.name should not be empty\ncontact.phone should not be empty',
    )
  })

  it('reports every failing rule at once, in field order', async () => {
    await failsWith(
      { type: 'video', video: { url: 'ftp://x', duration: 0, thumbnail: 'nope' } },
      'video.url must be an http or https URL\nvideo.mimetype should not be empty\n' +
        'video.duration must be greater than 0\nvideo.thumbnail must be an http or https URL',
    )
  })
})
