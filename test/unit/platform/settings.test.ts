/**
 * The platform's slice of the settings (src/platform/settings.ts): what a platform link is given (`linkSettings`),
 * taken from a shard's settings, holds no key, token or store address.
 */
import { describe, expect, it } from 'vitest'
import { shardSettings } from '../../../src/actors/settings.js'
import { linkSettings, PLATFORM_SETTINGS } from '../../../src/platform/settings.js'
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
