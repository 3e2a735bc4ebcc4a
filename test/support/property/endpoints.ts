/**
 * @module test/support/property/endpoints
 * Every endpoint the property tests call: its method, a generator of its path (and query), the statuses the spec and
 * docs/api.md allow it, and whether it takes the session headers and a body.
 */
import fc from 'fast-check'
import { anyText } from './values.js'

export interface Endpoint {
  name: string
  method: string
  path: fc.Arbitrary<string>
  /** Statuses the spec and docs/api.md allow for this endpoint. */
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
