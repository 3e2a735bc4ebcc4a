/**
 * @module test/unit/cluster/settings
 * The cluster settings: REDIS_URL must be a redis:// or rediss:// URL and is never echoed (it may hold a password);
 * NODE_ID defaults to the host name and refuses the lease separator; CLUSTER_RENEW_MS must leave room for two
 * renewals before the deadline. Unset, the gateway is in its default (lmdb) mode.
 */
import os from 'node:os'
import { describe, expect, it } from 'vitest'
import { loadSettings } from '../../../src/gateway-settings.js'
import { sessionShare } from '../../../src/cluster/settings.js'

const refusal = (env: NodeJS.ProcessEnv): string => {
  try {
    loadSettings(env)
  } catch (err) {
    return (err as Error).message
  }
  return ''
}

const SECRET = 'x'.repeat(32)

describe('cluster settings', () => {
  it('are off by default, with leases of 15 s renewed every 5 s under the host name', () => {
    const settings = loadSettings({})
    expect(settings.REDIS_URL).toBeUndefined()
    expect(settings).toMatchObject({ NODE_ID: os.hostname(), CLUSTER_LEASE_TTL_MS: 15_000, CLUSTER_RENEW_MS: 5_000 })
    expect(loadSettings({ REDIS_URL: '' }).REDIS_URL).toBeUndefined()
  })

  it('take a redis URL and refuse anything else without echoing it', () => {
    expect(
      loadSettings({ REDIS_URL: 'rediss://gw:s3cret@cache.internal:6380/2', CLUSTER_SECRET: SECRET }).REDIS_URL,
    ).toBe('rediss://gw:s3cret@cache.internal:6380/2')
    const message = refusal({ REDIS_URL: 'http://gw:s3cret@cache.internal:6380' })
    expect(message).toBe(
      'invalid setting REDIS_URL: expected a redis:// or rediss:// URL, got a value of 36 characters',
    )
    expect(message).not.toContain('s3cret')
  })

  it('refuse a NODE_ID that could not be told apart in a lease', () => {
    expect(refusal({ NODE_ID: 'node|2' })).toMatch(/^invalid setting NODE_ID: expected 1-100 letters/)
    expect(loadSettings({ NODE_ID: 'gw-1.eu:a' }).NODE_ID).toBe('gw-1.eu:a')
  })

  it('refuse a renewal interval that leaves no room before the deadline', () => {
    expect(refusal({ CLUSTER_LEASE_TTL_MS: '3000', CLUSTER_RENEW_MS: '1500' })).toBe(
      'invalid setting CLUSTER_RENEW_MS: expected at most half of CLUSTER_LEASE_TTL_MS minus its margin (1200 ms), got "1500"',
    )
    expect(loadSettings({ CLUSTER_LEASE_TTL_MS: '3000', CLUSTER_RENEW_MS: '1000' }).CLUSTER_RENEW_MS).toBe(1000)
  })

  it('need CLUSTER_SECRET with REDIS_URL: 32+ characters, one word, never echoed', () => {
    expect(refusal({ REDIS_URL: 'redis://127.0.0.1:6379' })).toBe(
      'invalid setting CLUSTER_SECRET: cluster mode (REDIS_URL) needs it: the same 32+ character secret on every node',
    )
    const short = refusal({ REDIS_URL: 'redis://127.0.0.1:6379', CLUSTER_SECRET: 'tooshort-s3cret' })
    expect(short).toBe(
      'invalid setting CLUSTER_SECRET: must be at least 32 characters (use a long random value), got a value of 15 characters',
    )
    expect(refusal({ CLUSTER_SECRET: `${'y'.repeat(32)} z` })).toMatch(
      /^invalid setting CLUSTER_SECRET: must not contain/,
    )
    expect(loadSettings({ REDIS_URL: 'redis://127.0.0.1:6379', CLUSTER_SECRET: SECRET }).CLUSTER_SECRET).toBe(SECRET)
  })

  it('refuse an http ADVERTISE_URL when TLS between nodes is required, and a path in it', () => {
    expect(refusal({ CLUSTER_REQUIRE_TLS: 'true', ADVERTISE_URL: 'http://gw-1:3000' })).toBe(
      'invalid setting ADVERTISE_URL: CLUSTER_REQUIRE_TLS=true needs an https:// address',
    )
    expect(refusal({ ADVERTISE_URL: 'https://gw-1:3000/api' })).toMatch(/^invalid setting ADVERTISE_URL: expected an/)
    expect(refusal({ ADVERTISE_URL: 'https://user:pw@gw-1:3000' })).toMatch(/^invalid setting ADVERTISE_URL/)
    expect(loadSettings({ CLUSTER_REQUIRE_TLS: 'true', ADVERTISE_URL: 'https://gw-1:3000' }).ADVERTISE_URL).toBe(
      'https://gw-1:3000',
    )
  })

  it("bound a forwarded answer and a session's share of a peer's connections, a percentage of 1 to 100", () => {
    expect(loadSettings({})).toMatchObject({
      CLUSTER_FORWARD_SESSION_PERCENT: 25,
      CLUSTER_FORWARD_ANSWER_MS: 30_000,
      CLUSTER_FORWARD_STALL_MS: 10_000,
    })
    for (const bad of ['0', '101', '12.5'])
      expect(refusal({ CLUSTER_FORWARD_SESSION_PERCENT: bad })).toMatch(
        /^invalid setting CLUSTER_FORWARD_SESSION_PERCENT/,
      )
    expect(refusal({ CLUSTER_FORWARD_STALL_MS: '0' })).toMatch(/^invalid setting CLUSTER_FORWARD_STALL_MS/)
    expect(sessionShare(16, 25)).toBe(4)
    expect(sessionShare(1, 25)).toBe(1)
    expect(sessionShare(256, 100)).toBe(256)
  })

  it('take TLS files only in pairs, and only readable ones', () => {
    expect(refusal({ TLS_CERT_FILE: '/nonexistent/cert.pem' })).toMatch(
      /^invalid setting TLS_CERT_FILE: expected the path of a readable file/,
    )
    expect(refusal({ TLS_CERT_FILE: import.meta.filename })).toBe(
      'invalid setting TLS_KEY_FILE: TLS_CERT_FILE and TLS_KEY_FILE go together, set both or neither',
    )
  })
})
