/**
 * @module test/unit/http/request-origin
 * The origin a view link names when PUBLIC_URL is unset: the request's scheme and its Host, only when that Host is a
 * host name or address with an optional port. A Host carrying credentials, a path, a query, spaces or anything a
 * URL would read as more than a host names no origin (POST /session/view-link then answers 400).
 */
import { describe, expect, it } from 'vitest'
import { requestOrigin } from '../../../src/http/request-origin.js'

const origin = (host: string, protocol = 'http') => requestOrigin({ host, protocol })

describe('requestOrigin', () => {
  it('takes a host name, an IPv4 or bracketed IPv6 address, with or without a port', () => {
    expect(origin('gw.test')).toBe('http://gw.test')
    expect(origin('GW.Test:8443', 'https')).toBe('https://gw.test:8443')
    expect(origin('127.0.0.1:3000')).toBe('http://127.0.0.1:3000')
    expect(origin('[::1]:3000')).toBe('http://[::1]:3000')
    expect(origin('localhost')).toBe('http://localhost')
  })

  it('names no origin for a Host that is more than a host', () => {
    for (const host of [
      '',
      'user@gw.test',
      'gw.test/path',
      'gw.test?x=1',
      'gw.test#x',
      'gw test',
      'gw.test:port',
      'gw.test:123456',
      '-gw.test',
      'gw..test',
      '[::1',
      `${'a'.repeat(64)}.test`,
      'gw.test\\x',
    ])
      expect(origin(host), host).toBeUndefined()
  })
})
