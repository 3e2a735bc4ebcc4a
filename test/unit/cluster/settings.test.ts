/**
 * @module test/unit/cluster/settings
 * The cluster settings: REDIS_URL must be a redis:// or rediss:// URL and is never echoed (it may hold a password);
 * NODE_ID defaults to the host name and refuses the lease separator; CLUSTER_RENEW_MS must leave room for two
 * renewals before the deadline. Unset, the gateway is in its default (lmdb) mode.
 */
import os from 'node:os'
import { describe, expect, it } from 'vitest'
import { loadConfig } from '../../../src/config.js'

const refusal = (env: NodeJS.ProcessEnv): string => {
  try {
    loadConfig(env)
  } catch (err) {
    return (err as Error).message
  }
  return ''
}

describe('cluster settings', () => {
  it('are off by default, with leases of 15 s renewed every 5 s under the host name', () => {
    const config = loadConfig({})
    expect(config.REDIS_URL).toBeUndefined()
    expect(config).toMatchObject({ NODE_ID: os.hostname(), CLUSTER_LEASE_TTL_MS: 15_000, CLUSTER_RENEW_MS: 5_000 })
    expect(loadConfig({ REDIS_URL: '' }).REDIS_URL).toBeUndefined()
  })

  it('take a redis URL and refuse anything else without echoing it', () => {
    expect(loadConfig({ REDIS_URL: 'rediss://gw:s3cret@cache.internal:6380/2' }).REDIS_URL).toBe(
      'rediss://gw:s3cret@cache.internal:6380/2',
    )
    const message = refusal({ REDIS_URL: 'http://gw:s3cret@cache.internal:6380' })
    expect(message).toBe(
      'invalid setting REDIS_URL: expected a redis:// or rediss:// URL, got a value of 36 characters',
    )
    expect(message).not.toContain('s3cret')
  })

  it('refuse a NODE_ID that could not be told apart in a lease', () => {
    expect(refusal({ NODE_ID: 'node|2' })).toMatch(/^invalid setting NODE_ID: expected 1-100 letters/)
    expect(loadConfig({ NODE_ID: 'gw-1.eu:a' }).NODE_ID).toBe('gw-1.eu:a')
  })

  it('refuse a renewal interval that leaves no room before the deadline', () => {
    expect(refusal({ CLUSTER_LEASE_TTL_MS: '3000', CLUSTER_RENEW_MS: '1500' })).toBe(
      'invalid setting CLUSTER_RENEW_MS: expected at most half of CLUSTER_LEASE_TTL_MS minus its margin (1200 ms), got "1500"',
    )
    expect(loadConfig({ CLUSTER_LEASE_TTL_MS: '3000', CLUSTER_RENEW_MS: '1000' }).CLUSTER_RENEW_MS).toBe(1000)
  })
})
