/**
 * What POST /message's schema (src/http/endpoints/message/schema.ts) refuses, seen by the client through the app:
 * each rule's message, and no command reaching the session.
 */
import { describe, expect, it } from 'vitest'
import { expectError } from '../../../../support/expect-error.js'
import * as valid from '../../../../support/message-bodies.js'

describe('POST /message: validation messages', () => {
  const failsWith = async (body: object, message: string) => {
    const { res, system } = await valid.sendMessage({ phone: valid.PHONE, ...body })
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
    ['image', valid.IMAGE, ['url', 'mimetype']],
    ['video', valid.VIDEO, ['url', 'mimetype', 'duration']],
    ['audio', valid.AUDIO, ['url', 'mimetype', 'duration']],
    ['document', valid.DOCUMENT, ['url', 'name', 'size', 'mimetype']],
    ['location', valid.LOCATION, ['latitude', 'longitude']],
    ['contact', valid.CONTACT, ['name', 'phone']],
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
    await failsWith({ type: 'image', image: { ...valid.IMAGE, url: 5 } }, 'image.url must be a string')
    await failsWith({ type: 'image', image: { ...valid.IMAGE, mimetype: true } }, 'image.mimetype must be a string')
    await failsWith({ type: 'video', video: { ...valid.VIDEO, duration: '12' } }, 'video.duration must be a number')
    await failsWith(
      { type: 'document', document: { ...valid.DOCUMENT, size: '1024' } },
      'document.size must be a number',
    )
    await failsWith(
      { type: 'location', location: { latitude: '1', longitude: 2 } },
      'location.latitude must be a number',
    )
    await failsWith({ type: 'image', image: 'https://media.test/a.jpg' }, 'image must be an object')
    await failsWith({ type: 'audio', audio: [valid.AUDIO] }, 'audio must be an object')
    await failsWith(
      { type: 'contact', contact: { name: 1, phone: 2 } },
      'contact.name must be a string\ncontact.phone must be a string',
    )
  })

  it('refuses wrong types in optional fields when present', async () => {
    await failsWith({ type: 'image', image: valid.IMAGE, text: 3 }, 'text must be a string')
    await failsWith({ type: 'video', video: { ...valid.VIDEO, thumbnail: 3 } }, 'video.thumbnail must be a string')
    await failsWith(
      { type: 'location', location: { ...valid.LOCATION, name: 1, address: {} } },
      'location.name must be a string\nlocation.address must be a string',
    )
  })

  it('requires durations and sizes greater than 0', async () => {
    await failsWith({ type: 'video', video: { ...valid.VIDEO, duration: 0 } }, 'video.duration must be greater than 0')
    await failsWith({ type: 'audio', audio: { ...valid.AUDIO, duration: -1 } }, 'audio.duration must be greater than 0')
    await failsWith(
      { type: 'document', document: { ...valid.DOCUMENT, size: 0 } },
      'document.size must be greater than 0',
    )
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
    const { res } = await valid.sendMessage({
      phone: valid.PHONE,
      type: 'location',
      location: { latitude: 90, longitude: -180 },
    })
    expect(res.status).toBe(200)
  })

  it('requires http or https media URLs', async () => {
    for (const url of ['ftp://media.test/a.jpg', 'file:///etc/passwd', 'not a url', 'javascript:alert(1)']) {
      await failsWith({ type: 'image', image: { ...valid.IMAGE, url } }, 'image.url must be an http or https URL')
    }
    await failsWith(
      { type: 'video', video: { ...valid.VIDEO, thumbnail: 'data:image/png;base64,AAAA' } },
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
