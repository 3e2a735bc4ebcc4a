/**
 * Each part is handed its slice of the settings and nothing else, at run time too: what crosses to a shard thread
 * (actors/settings.ts), what a platform link is given (platform/settings.ts) and what the HTTP app reads
 * (http/deps.ts). The secrets a part has no use for never reach it: a worker thread, or the platform library
 * running in it, cannot leak the front's bearer tokens or the cluster's secret.
 */
import { describe, expect, it } from 'vitest'
import { ACTOR_SETTINGS, shardSettings } from '../../../src/actors/settings.js'
import { appSettings } from '../../../src/http/deps.js'
import { HTTP_SETTINGS } from '../../../src/http/settings.js'
import { linkSettings, PLATFORM_SETTINGS } from '../../../src/platform/settings.js'
import { loadSettings, SETTING_NAMES } from '../../../src/settings/load.js'

const settings = loadSettings({
  DATA_KEY: 'k'.repeat(43),
  CREATE_SESSION_TOKEN: 'create-token-0123456789',
  METRICS_TOKEN: 'metrics-token-0123456789',
  REDIS_URL: 'redis://user:password@127.0.0.1:6379',
  CLUSTER_SECRET: 's'.repeat(40),
  SESSION_PROXY_DEFAULT: 'socks5://user:password@127.0.0.1:1080',
})
const keys = (values: object) => Object.keys(values)

describe('the slices of the settings', () => {
  it('put every setting in exactly one part', () => {
    expect(new Set(SETTING_NAMES).size).toBe(SETTING_NAMES.length)
  })

  it("give a shard thread its actors', links', storage's and logs' settings, none of the front's or the cluster's", () => {
    const shard = keys(shardSettings(settings))
    expect(shard).toEqual(expect.arrayContaining([...keys(ACTOR_SETTINGS), ...keys(PLATFORM_SETTINGS), 'DATA_KEY']))
    expect(shard).toEqual(expect.arrayContaining(['REDIS_URL', 'NODE_ID', 'CLUSTER_LEASE_TTL_MS', 'CLUSTER_RENEW_MS']))
    for (const secret of ['CREATE_SESSION_TOKEN', 'METRICS_TOKEN', 'CLUSTER_SECRET', 'TRUST_PROXY', 'PORT'])
      expect(shard, secret).not.toContain(secret)
    // it crosses to the thread as plain data
    expect(structuredClone(shardSettings(settings))).toEqual(shardSettings(settings))
  })

  it('give a platform link no key, token or store address', () => {
    const link = keys(linkSettings(shardSettings(settings)))
    expect(link).toEqual(
      expect.arrayContaining([...keys(PLATFORM_SETTINGS), 'MEDIA_MAX_BYTES', 'SESSION_PROXY_DEFAULT']),
    )
    for (const secret of [
      'DATA_KEY',
      'REDIS_URL',
      'CLUSTER_SECRET',
      'CREATE_SESSION_TOKEN',
      'METRICS_TOKEN',
      'DATA_DIR',
    ])
      expect(link, secret).not.toContain(secret)
  })

  it("give the HTTP app its own slice and the proxy policy's, no storage key and nothing of the cluster", () => {
    const app = keys(appSettings(settings))
    expect(app).toEqual(expect.arrayContaining(keys(HTTP_SETTINGS)))
    expect(app).toEqual(expect.arrayContaining(['SESSION_PROXY_ALLOWED_HOSTS', 'MEDIA_DNS_SERVERS']))
    for (const secret of ['DATA_KEY', 'REDIS_URL', 'CLUSTER_SECRET', 'SESSION_PROXY_DEFAULT'])
      expect(app, secret).not.toContain(secret)
  })
})
