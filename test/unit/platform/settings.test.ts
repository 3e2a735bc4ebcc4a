/**
 * The platform's slice of the settings (src/platform/settings.ts): what a platform link is given (`linkSettings`),
 * taken from a shard's settings, holds no key, token or store address; what the link tells the platform it is
 * (client version, presence, device name) is checked at start.
 */
import { describe, expect, it } from 'vitest'
import { shardSettings } from '../../../src/actors/settings.js'
import { linkSettings, PLATFORM_SETTINGS } from '../../../src/platform/settings.js'
import { loadSettings } from '../../../src/gateway-settings.js'
import { settingsWithSecrets } from '../../support/secret-settings.js'

describe('linkSettings', () => {
  it('gives a platform link no key, token or store address', () => {
    const link = Object.keys(linkSettings(shardSettings(settingsWithSecrets())))
    expect(link).toEqual(
      expect.arrayContaining([...Object.keys(PLATFORM_SETTINGS), 'MEDIA_MAX_BYTES', 'SESSION_PROXY_DEFAULT']),
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
})

describe('what the link tells the platform it is', () => {
  it('defaults: no pinned version, not online on connect, listed as "Mac OS"', () => {
    const settings = loadSettings({})
    expect(settings.PLATFORM_CLIENT_VERSION).toBeUndefined()
    expect(settings.PLATFORM_ONLINE_ON_CONNECT).toBe(false)
    expect(settings.PLATFORM_DEVICE_NAME).toBe('Mac OS')
    expect(loadSettings({ PLATFORM_CLIENT_VERSION: '' }).PLATFORM_CLIENT_VERSION).toBeUndefined()
  })

  it('a pinned version is a.b.c and nothing else; a device name 1 to 50 characters without control characters', () => {
    expect(loadSettings({ PLATFORM_CLIENT_VERSION: '2.3000.1043857760' }).PLATFORM_CLIENT_VERSION).toBe(
      '2.3000.1043857760',
    )
    for (const bad of ['2.3000', 'v2.3000.1', '2.3000.1.4', '2.3000.12345678901', '2.3000.1 '])
      expect(() => loadSettings({ PLATFORM_CLIENT_VERSION: bad }), bad).toThrow(
        `invalid setting PLATFORM_CLIENT_VERSION: expected a version a.b.c (three integers), got ${JSON.stringify(bad)}`,
      )
    expect(loadSettings({ PLATFORM_DEVICE_NAME: ' Front desk ' }).PLATFORM_DEVICE_NAME).toBe('Front desk')
    for (const bad of ['', '   ', 'x'.repeat(51), 'Front\ndesk'])
      expect(() => loadSettings({ PLATFORM_DEVICE_NAME: bad }), bad).toThrow('invalid setting PLATFORM_DEVICE_NAME')
  })
})
