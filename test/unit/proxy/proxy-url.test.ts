/**
 * A session's proxy URL (src/proxy/proxy-url.ts): the four schemes with their default ports, credentials decoded,
 * anything else refused, and the masked form that is all a client or a log line ever sees.
 */
import { describe, expect, it } from 'vitest'
import { maskProxy, parseProxyUrl } from '../../../src/proxy/proxy-url.js'

describe('parseProxyUrl', () => {
  it('takes socks5, socks5h, http and https, with default ports and decoded credentials', () => {
    expect(parseProxyUrl('socks5://al%40ce:p%3Ass@Proxy.Test:1081')).toEqual({
      href: 'socks5://al%40ce:p%3Ass@proxy.test:1081',
      scheme: 'socks5',
      host: 'proxy.test',
      port: 1081,
      username: 'al@ce',
      password: 'p:ss',
      masked: 'socks5://al%40ce:***@proxy.test:1081',
    })
    expect(parseProxyUrl('socks5h://proxy.test')?.port).toBe(1080)
    expect(parseProxyUrl('http://proxy.test')?.port).toBe(80)
    expect(parseProxyUrl('https://proxy.test/')?.port).toBe(443)
    expect(parseProxyUrl('http://[::1]:3128')).toMatchObject({ host: '::1', port: 3128, masked: 'http://[::1]:3128' })
    expect(parseProxyUrl('http://token@proxy.test:3128')).toMatchObject({
      href: 'http://token@proxy.test:3128',
      username: 'token',
      password: undefined,
      masked: 'http://***@proxy.test:3128',
    })
    // read as http reads a host, so the policy judges the address connected to
    expect(parseProxyUrl('socks5://0x7f.1:1080')).toMatchObject({ host: '127.0.0.1', href: 'socks5://127.0.0.1:1080' })
  })

  it('refuses what is not a proxy the gateway can use', () => {
    for (const text of [
      'ftp://proxy.test',
      'socks4://proxy.test:1080',
      'socks5://proxy.test:1080/path',
      'http://proxy.test:3128/?q=1',
      'http://proxy.test:3128/#x',
      'proxy.test:1080',
      'socks5://:1080',
      '',
    ]) {
      expect(parseProxyUrl(text), text).toBeUndefined()
    }
  })

  it('masks the password, a username given alone (it is the credential), and a URL it cannot read whole', () => {
    expect(maskProxy('https://u:secret@proxy.test:8443')).toBe('https://u:***@proxy.test:8443')
    for (const lone of ['socks5://tok3n-s3cret@proxy.test:1080', 'socks5://tok3n-s3cret:@proxy.test:1080'])
      expect(maskProxy(lone)).toBe('socks5://***@proxy.test:1080')
    expect(maskProxy('nonsense:secret@x')).toBe('nonsense://***')
  })
})
