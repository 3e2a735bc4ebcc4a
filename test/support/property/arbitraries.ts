/**
 * @module test/support/property/arbitraries
 * fast-check generators for requests to every endpoint: the auth headers (valid, empty, unicode, huge, repeated),
 * extra headers, content types, and bodies from random JSON to field-aware objects whose fields take valid, wrong-type,
 * unicode and oversized values. `media` lists the only URLs a generated body may carry, so a run against a real
 * gateway never makes it reach past loopback.
 */
import fc from 'fast-check'
import type { RawRequest } from './raw-http.js'

export interface Endpoint {
  name: string
  method: string
  path: fc.Arbitrary<string>
  /** Statuses the spec and the README allow for this endpoint. */
  allowed: readonly number[]
  auth: boolean
  body: boolean
}

export interface GenOptions {
  /** Headers of a live session; generated requests use them often, so deep paths are reached. */
  auth: { id: string; 'session-id': string }
  /** URLs a body may name (loopback only when a real gateway downloads them). */
  media: string[]
  groupId: string
  channelId: string
}

const SEND = [200, 400, 404, 413, 415, 429, 500, 503] as const
// Every authenticated endpoint may answer 429: a session's commands in flight are capped, and each family has a rate.
const READ = [200, 400, 404, 429, 500, 503] as const
const AUTHENTICATED = [200, 400, 404, 429, 500, 503] as const

/** Characters a header value may carry on the wire (no controls); unicode goes out as UTF-8 bytes (obs-text). */
const headerText = (maxLength: number) =>
  fc
    .string({
      unit: fc.oneof(
        fc.constantFrom(...' !"#$%&\'()*+,-./09:;<=>?@AZ[\\]^_`az{|}~'),
        fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }),
      ),
      maxLength,
    })
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it strips
    .map(s => s.replace(/[\u0000-\u001f\u007f]/g, ''))

/** Text for bodies: any code point, sometimes long. */
const anyText = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 200, maxLength: 3_000 }) },
  { weight: 1, arbitrary: fc.constantFrom('', ' ', '\u0000', '😀', '\u202e', 'null', '__proto__', 'constructor') },
)

const anyScalar = fc.oneof(anyText, fc.double(), fc.integer(), fc.boolean(), fc.constant(null))
const anyJson = fc.jsonValue({ maxDepth: 3 })

const query = (pairs: [string, fc.Arbitrary<string>][]) =>
  fc
    .tuple(
      ...pairs.map(([k, v]) =>
        fc.option(
          v.map(x => `${k}=${x}`),
          { nil: undefined },
        ),
      ),
    )
    .map(parts => parts.filter((p): p is string => p !== undefined))
    .map(parts => (parts.length ? `?${parts.join('&')}` : ''))

/** A query or path value: encoded text, a raw (possibly broken) percent sequence, or a known good id. */
const idValue = (good: string) =>
  fc.oneof(
    fc.constant(encodeURIComponent(good)),
    anyText.map(encodeURIComponent),
    fc.constantFrom('%E0%A4%A', '%', '%%', '%00', 'a%2Fb', '..%2F..', '%F0%9F%98%80'),
  )

export function endpoints(o: GenOptions): Endpoint[] {
  const fixed = (p: string) => fc.constant(p)
  return [
    {
      name: 'POST /session',
      method: 'POST',
      path: fixed('/session'),
      // 400, 413, 415: its optional body (a proxy) is read as JSON when there is one
      allowed: [200, 400, 413, 415, 429, 500, 503],
      auth: false,
      body: true,
    },
    { name: 'GET /session', method: 'GET', path: fixed('/session'), allowed: [200, 400, 404], auth: true, body: false },
    {
      name: 'POST /session/reset',
      method: 'POST',
      path: fixed('/session/reset'),
      allowed: AUTHENTICATED,
      auth: true,
      body: true,
    },
    {
      name: 'POST /session/view-link',
      method: 'POST',
      path: fixed('/session/view-link'),
      allowed: [200, 400, 404, 409, 503],
      auth: true,
      body: true,
    },
    // no view-token header among the generated ones: always refused
    {
      name: 'GET /session/qr',
      method: 'GET',
      path: fixed('/session/qr'),
      allowed: [400, 404],
      auth: true,
      body: false,
    },
    {
      name: 'POST /session/pairing-code',
      method: 'POST',
      path: fixed('/session/pairing-code'),
      allowed: [200, 400, 404, 409, 413, 415, 429, 500, 503],
      auth: true,
      body: true,
    },
    {
      name: 'DELETE /session',
      method: 'DELETE',
      path: fixed('/session'),
      allowed: AUTHENTICATED,
      auth: true,
      body: true,
    },
    {
      name: 'GET /session/proxy',
      method: 'GET',
      path: fixed('/session/proxy'),
      allowed: READ,
      auth: true,
      body: false,
    },
    { name: 'PUT /session/proxy', method: 'PUT', path: fixed('/session/proxy'), allowed: SEND, auth: true, body: true },
    {
      name: 'DELETE /session/proxy',
      method: 'DELETE',
      path: fixed('/session/proxy'),
      allowed: AUTHENTICATED,
      auth: true,
      body: true,
    },
    { name: 'POST /message', method: 'POST', path: fixed('/message'), allowed: SEND, auth: true, body: true },
    { name: 'POST /status', method: 'POST', path: fixed('/status'), allowed: SEND, auth: true, body: true },
    { name: 'POST /typing', method: 'POST', path: fixed('/typing'), allowed: SEND, auth: true, body: true },
    { name: 'GET /group', method: 'GET', path: fixed('/group'), allowed: READ, auth: true, body: false },
    {
      name: 'GET /group/member',
      method: 'GET',
      auth: true,
      body: false,
      allowed: READ,
      path: query([
        ['groupId', idValue(o.groupId)],
        ['groupId', idValue(o.groupId)],
      ]).map(q => `/group/member${q}`),
    },
    {
      name: 'GET /group/{id}',
      method: 'GET',
      path: idValue(o.groupId).map(id => `/group/${id}`),
      allowed: READ,
      auth: true,
      body: false,
    },
    { name: 'GET /channel', method: 'GET', path: fixed('/channel'), allowed: READ, auth: true, body: false },
    {
      name: 'GET /channel/message',
      method: 'GET',
      auth: true,
      body: false,
      allowed: READ,
      path: query([
        ['channelId', idValue(o.channelId)],
        ['before', fc.oneof(fc.integer().map(String), idValue('1'))],
      ]).map(q => `/channel/message${q}`),
    },
    {
      name: 'anything else',
      method: 'GET',
      auth: true,
      body: true,
      allowed: [400, 404],
      path: fc
        .array(anyText.map(encodeURIComponent), { minLength: 1, maxLength: 3 })
        .map(s => `/${s.join('/')}`)
        .filter(p => !/^\/(session|message|status|typing|group|channel)(\/|$|\?)/.test(p))
        // the QR page (GET /) and its assets are pages, not API routes
        .filter(p => !/^\/+(\?|$|qr-page\/(script\.js|style\.css)(\?|$))/.test(p)),
    },
  ]
}

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

const contentType = fc.option(
  fc.oneof(
    { weight: 8, arbitrary: fc.constant('application/json') },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        'application/json; charset=utf-8',
        'application/json; charset=latin1',
        'application/json; charset=utf-16',
        'application/json; charset=nope',
        'APPLICATION/JSON',
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/*',
        '*/*',
      ),
    },
    { weight: 1, arbitrary: headerText(60) },
  ),
  { nil: undefined, freq: 10 },
)

function body(o: GenOptions): fc.Arbitrary<Buffer | undefined> {
  const json = (v: fc.Arbitrary<unknown>) => v.map(x => Buffer.from(JSON.stringify(x) ?? 'null', 'utf8'))
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant(undefined) },
    { weight: 4, arbitrary: json(bodyObject(o)) },
    { weight: 4, arbitrary: json(nearlyValid(o)) },
    { weight: 2, arbitrary: json(anyJson) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }).map(a => Buffer.from(a)) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom('{', '{"type":', '[]', '""', '1e999999', '{"a":1}{', '\ufeff{}', '{"__proto__":{"x":1}}')
        .map(s => Buffer.from(s)),
    },
    {
      weight: 1,
      arbitrary: fc
        .integer({ min: 5_000, max: 2_000_000 })
        .map(n => Buffer.from(JSON.stringify({ type: 'text', phone: '5511999999999', text: 'x'.repeat(n) }))),
    },
  )
}

/** One of: the session's own value, nothing, empty, random, unicode, huge. */
function authValue(good: string): fc.Arbitrary<string | undefined> {
  return fc.oneof(
    { weight: 30, arbitrary: fc.constant(good) },
    { weight: 1, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.constantFrom('', ' ', good.toUpperCase(), `${good} `, `${good},${good}`) },
    { weight: 2, arbitrary: headerText(40) },
    { weight: 1, arbitrary: headerText(40).map(s => s.repeat(150).slice(0, 6_000)) },
  )
}

const extraHeader = fc.tuple(
  fc
    .stringMatching(/^[a-z][a-z0-9-]{0,15}$/)
    .filter(
      n =>
        ![
          'host',
          'connection',
          'content-length',
          'transfer-encoding',
          'expect',
          'upgrade',
          'te',
          'trailer',
          'content-type',
          'id',
          'session-id',
        ].includes(n),
    ),
  headerText(100),
)

export function requestFor(e: Endpoint, o: GenOptions): fc.Arbitrary<RawRequest> {
  return fc
    .record({
      path: e.path,
      id: e.auth ? authValue(o.auth.id) : fc.constant(undefined),
      sessionId: e.auth ? authValue(o.auth['session-id']) : fc.constant(undefined),
      duplicate: fc
        .boolean()
        .chain(b => (b ? fc.boolean() : fc.constant(false)))
        .chain(b => (b ? fc.boolean() : fc.constant(false))),
      contentType,
      extra: fc.array(extraHeader, { maxLength: 4 }),
      encoding: fc.option(fc.constantFrom('gzip', 'deflate', 'br', 'identity', 'nope'), { nil: undefined, freq: 10 }),
      body: e.body ? body(o) : fc.constant(undefined),
    })
    .map(r => {
      const headers: [string, string][] = []
      if (r.id !== undefined) headers.push(['id', r.id])
      if (r.sessionId !== undefined) headers.push(['session-id', r.sessionId])
      if (r.duplicate && r.id !== undefined) headers.push(['id', r.id]) // a repeated header arrives joined: "a, a"
      if (r.contentType !== undefined) headers.push(['content-type', r.contentType])
      if (r.encoding !== undefined) headers.push(['content-encoding', r.encoding])
      headers.push(...r.extra)
      return { method: e.method, path: r.path, headers, ...(r.body ? { body: r.body } : {}) }
    })
}
