/**
 * The start-up warnings (src/startup-warnings.ts): each risky setting is one warn line, and a setting that keeps
 * its protection says nothing. The real process logs them: test/system/ops/startup-warnings.test.ts.
 */
import { describe, expect, it } from 'vitest'
import { startupWarnings } from '../../src/startup-warnings.js'

const SAFE = {
  MEDIA_ALLOW_PRIVATE_URLS: false,
  VERIFY_PLATFORM_SIGNATURES: true,
  SESSION_PROXY_ALLOW_PRIVATE: false,
  REDIS_URL: undefined,
  DATA_KEY: undefined,
  ADVERTISE_URL: undefined,
  TLS_CERT_FILE: undefined,
  CLUSTER_REQUIRE_TLS: false,
}
const CLUSTER = { ...SAFE, REDIS_URL: 'redis://127.0.0.1:6379', DATA_KEY: 'k'.repeat(44) }
const warned = (patch: Partial<typeof SAFE> | object) => startupWarnings({ ...SAFE, ...patch })

describe('start-up warnings', () => {
  it('a single node on the defaults says nothing', () => {
    expect(warned({})).toEqual([])
  })

  it("SESSION_PROXY_ALLOW_PRIVATE=true: tenants' proxies may reach inside the network", () => {
    expect(warned({ SESSION_PROXY_ALLOW_PRIVATE: true })).toEqual([
      expect.stringMatching(/^SESSION_PROXY_ALLOW_PRIVATE=true: .*loopback or private address/),
    ])
  })

  it('cluster mode without DATA_KEY: credentials in clear in Redis', () => {
    const lines = warned({ ...CLUSTER, DATA_KEY: undefined, ADVERTISE_URL: 'https://10.0.0.7:3000' })
    expect(lines).toEqual([expect.stringMatching(/^cluster mode without DATA_KEY: .*in clear/)])
  })

  it('cluster mode forwarding over plain http without CLUSTER_REQUIRE_TLS, the default address included', () => {
    const plain = /^cluster mode with a plain http ADVERTISE_URL and CLUSTER_REQUIRE_TLS=false: /
    expect(warned({ ...CLUSTER, ADVERTISE_URL: 'http://10.0.0.7:3000' })).toEqual([expect.stringMatching(plain)])
    expect(warned(CLUSTER)).toEqual([expect.stringMatching(plain)]) // ADVERTISE_URL's default is http without a certificate
    expect(warned({ ...CLUSTER, TLS_CERT_FILE: '/etc/gw/cert.pem' })).toEqual([]) // ...and https with one
    expect(warned({ ...CLUSTER, ADVERTISE_URL: 'https://10.0.0.7:3000' })).toEqual([])
    // a single node forwards nothing: its address is no one's business
    expect(warned({ ADVERTISE_URL: 'http://10.0.0.7:3000' })).toEqual([])
  })
})
