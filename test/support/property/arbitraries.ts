/**
 * @module test/support/property/arbitraries
 * fast-check generators for requests to every endpoint: the auth headers (valid, empty, unicode, huge, repeated),
 * extra headers, content types, and bodies from random JSON to field-aware objects whose fields take valid, wrong-type,
 * unicode and oversized values. `media` lists the only URLs a generated body may carry, so a run against a real
 * gateway never makes it reach past loopback.
 */
import fc from 'fast-check'
import { bodyObject, nearlyValid } from './bodies.js'
import type { Endpoint, GenOptions } from './endpoints.js'
import type { RawRequest } from './raw-http.js'
import { anyJson, headerText } from './values.js'

export { type Endpoint, endpoints, type GenOptions } from './endpoints.js'

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
