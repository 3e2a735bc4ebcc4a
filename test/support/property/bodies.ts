/**
 * @module test/support/property/bodies
 * POST bodies for the property tests: field-aware objects whose fields take valid, wrong-type, unicode and oversized
 * values, and valid bodies with one field changed, to reach the deeper rules.
 */
import fc from 'fast-check'
import type { GenOptions } from './endpoints.js'
import { anyJson, anyScalar, anyText } from './values.js'

/** A field-aware POST body: every key the endpoints read, each with valid, wrong-type or odd values. */
export function bodyObject(o: GenOptions): fc.Arbitrary<Record<string, unknown>> {
  const url = fc.oneof(
    fc.constantFrom(...o.media),
    anyText.filter(s => !s.includes('://')),
    anyScalar,
  )
  const media = fc.record(
    {
      url,
      mimetype: fc.oneof(fc.constantFrom('image/jpeg', 'video/mp4', 'audio/ogg', 'application/pdf'), anyScalar),
      thumbnail: fc.oneof(url, fc.constant('')),
      duration: fc.oneof(fc.double(), fc.integer(), anyScalar),
      name: anyScalar,
      size: fc.oneof(fc.integer(), anyScalar),
    },
    { requiredKeys: [] },
  )
  const field = <T>(good: fc.Arbitrary<T>) =>
    fc.oneof({ weight: 3, arbitrary: good }, { weight: 1, arbitrary: anyScalar }, { weight: 1, arbitrary: anyJson })
  return fc.record(
    {
      phone: field(fc.constantFrom('5511999999999', '+1 555 000 0002', '15550000002', '123', '+'.repeat(20))),
      group: field(fc.constantFrom(o.groupId, '1@g.us', 'x@g.us')),
      newsletter: field(fc.constantFrom(o.channelId, '1@newsletter')),
      type: field(fc.constantFrom('text', 'image', 'video', 'audio', 'document', 'location', 'contact', 'TEXT', '')),
      text: field(anyText),
      image: field(media),
      video: field(media),
      audio: field(media),
      document: field(media),
      location: field(
        fc.record(
          {
            latitude: fc.oneof(fc.double(), anyScalar),
            longitude: fc.oneof(fc.double(), anyScalar),
            name: anyScalar,
            address: anyScalar,
          },
          { requiredKeys: [] },
        ),
      ),
      contact: field(
        fc.record(
          { name: anyScalar, phone: fc.oneof(fc.constant('+1 415 555 0100'), anyScalar) },
          { requiredKeys: [] },
        ),
      ),
    },
    { requiredKeys: [] },
  )
}

/** A valid body of some endpoint with one field replaced, removed or left alone: reaches the deeper rules. */
export function nearlyValid(o: GenOptions): fc.Arbitrary<Record<string, unknown>> {
  const [image, video] = [o.media[0], o.media[1] ?? o.media[0]]
  const valid: Record<string, unknown>[] = [
    { phone: '5511999999999', type: 'text', text: 'hello' },
    { group: o.groupId, type: 'image', text: 'cap', image: { url: image, mimetype: 'image/jpeg' } },
    { newsletter: o.channelId, type: 'video', video: { url: video, mimetype: 'video/mp4', duration: 3 } },
    { phone: '15550000002', type: 'audio', audio: { url: image, mimetype: 'audio/ogg', duration: 1.5 } },
    {
      phone: '15550000002',
      type: 'document',
      document: { url: image, name: 'a.pdf', size: 10, mimetype: 'application/pdf' },
    },
    { phone: '15550000002', type: 'location', location: { latitude: 52.5, longitude: 13.4, name: 'x' } },
    { phone: '15550000002', type: 'contact', contact: { name: 'Bob', phone: '+1 415 555 0100' } },
    { type: 'text', text: 'status' },
    { phone: '15550000002', type: 'audio' },
  ]
  return fc
    .record({
      base: fc.constantFrom(...valid),
      key: fc.constantFrom(
        'phone',
        'group',
        'newsletter',
        'type',
        'text',
        'image',
        'video',
        'audio',
        'document',
        'location',
        'contact',
        'url',
        'duration',
        'latitude',
      ),
      change: fc.oneof(fc.constant<'keep'>('keep'), fc.constant<'drop'>('drop'), anyScalar, anyJson),
    })
    .map(({ base, key, change }) => {
      const body = structuredClone(base)
      const target =
        key in body
          ? body
          : ((Object.values(body).find(v => typeof v === 'object' && v !== null && key in v) as
              | Record<string, unknown>
              | undefined) ?? body)
      if (change === 'drop') delete target[key]
      else if (change !== 'keep') target[key] = change
      return body
    })
}
