/**
 * What the HTTP app reads of the settings (src/http/deps.ts, `appSettings`): its own slice and the proxy policy's,
 * no storage key and nothing of the cluster.
 */
import { describe, expect, it } from 'vitest'
import { appSettings } from '../../../src/http/deps.js'
import { HTTP_SETTINGS } from '../../../src/http/settings.js'
import { settingsWithSecrets } from '../../support/secret-settings.js'

describe('appSettings', () => {
  it("gives the HTTP app its own slice and the proxy policy's, no storage key and nothing of the cluster", () => {
    const app = Object.keys(appSettings(settingsWithSecrets()))
    expect(app).toEqual(expect.arrayContaining(Object.keys(HTTP_SETTINGS)))
    expect(app).toEqual(expect.arrayContaining(['SESSION_PROXY_ALLOWED_HOSTS', 'MEDIA_DNS_SERVERS']))
    for (const secret of ['DATA_KEY', 'REDIS_URL', 'CLUSTER_SECRET', 'SESSION_PROXY_DEFAULT'])
      expect(app, secret).not.toContain(secret)
  })
})
