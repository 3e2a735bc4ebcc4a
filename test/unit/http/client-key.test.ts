/**
 * The client of the per-client limits (src/http/client-key.ts): an IPv4 address as is, an IPv6 address by its /64
 * in every spelling, an IPv4-mapped IPv6 address as its IPv4 client.
 */
import { describe, expect, it } from 'vitest'
import { clientKey } from '../../../src/http/client-key.js'

describe('clientKey', () => {
  it('keys IPv4 clients by address', () => {
    expect(clientKey('203.0.113.7')).toBe('203.0.113.7')
    expect(clientKey('203.0.113.8')).not.toBe(clientKey('203.0.113.7'))
  })

  it('keys IPv6 clients by /64, however the address is written', () => {
    const key = clientKey('2001:db8:1:2::1')
    expect(key).toBe('2001:db8:1:2::/64')
    for (const same of [
      '2001:db8:1:2:ffff:ffff:ffff:ffff',
      '2001:0db8:0001:0002:0:0:0:9',
      '2001:DB8:1:2::a%eth0',
      '2001:db8:1:2:0:0:1.2.3.4',
    ]) {
      expect(clientKey(same), same).toBe(key)
    }
    expect(clientKey('2001:db8:1:3::1')).not.toBe(key)
    expect(clientKey('::1')).toBe('0:0:0:0::/64')
    expect(clientKey('fe80::1')).toBe('fe80:0:0:0::/64')
  })

  it('keys an IPv4-mapped IPv6 address as its IPv4 client', () => {
    expect(clientKey('::ffff:203.0.113.7')).toBe('203.0.113.7')
    expect(clientKey('::ffff:cb00:7107')).toBe('203.0.113.7')
  })

  it('has a key for a missing address', () => {
    expect(clientKey(undefined)).toBe('unknown')
  })
})
