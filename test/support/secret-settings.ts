/**
 * @module test/support/secret-settings
 * The settings with every secret and store address set, for the tests that check which part is handed which of
 * them (each part's slice: test/unit/actors/settings.test.ts, platform/settings.test.ts, http/deps.test.ts).
 */
import { loadSettings, type Settings } from '../../src/gateway-settings.js'

export const settingsWithSecrets = (): Settings =>
  loadSettings({
    DATA_KEY: 'k'.repeat(43),
    CREATE_SESSION_TOKEN: 'create-token-0123456789',
    METRICS_TOKEN: 'metrics-token-0123456789',
    REDIS_URL: 'redis://user:password@127.0.0.1:6379',
    CLUSTER_SECRET: 's'.repeat(40),
    SESSION_PROXY_DEFAULT: 'socks5://user:password@127.0.0.1:1080',
  })
