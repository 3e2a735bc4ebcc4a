/**
 * The settings (src/gateway-settings.ts, the slices each part declares): every bad value named on one line with what
 * it expects, SANDBOX_URL only loopback http or https, every setting in one slice, and the Settings tables
 * (docs/operating.md, docs/cluster.md) in step with the settings, names and defaults. Which slice each part is handed: test/unit/actors/settings.test.ts,
 * test/unit/platform/settings.test.ts, test/unit/http/deps.test.ts. That a bad setting stops the real gateway at
 * start is test/system/ops/settings-at-start.test.ts.
 */
import { describe, expect, it } from 'vitest'
import { loadSettings, SETTING_NAMES } from '../../src/gateway-settings.js'
import { SettingsError } from '../../src/settings/errors.js'
import { ACTOR_SETTINGS } from '../../src/actors/settings.js'
import { CLUSTER_SETTINGS } from '../../src/cluster/settings.js'
import { HTTP_SETTINGS } from '../../src/http/settings.js'
import { LOG_SETTINGS } from '../../src/logger.js'
import { MEDIA_SETTINGS } from '../../src/media/settings.js'
import { PLATFORM_SETTINGS } from '../../src/platform/settings.js'
import { PROXY_SETTINGS } from '../../src/proxy/proxy-settings.js'
import { STORAGE_SETTINGS } from '../../src/storage/settings.js'
import { TEST_HOOK_SETTINGS } from '../../src/test-hooks.js'
import { documentedSettingDefaults, documentedSettingGroups, documentedSettings } from '../support/readme.js'

describe('settings', () => {
  it('names every bad setting on that one line, with what it expects', () => {
    let error: unknown
    try {
      loadSettings({ SHARDS: '0', LOG_LEVEL: 'loud', SANDBOX_URL: 'not a url', MEDIA_ALLOW_PRIVATE_URLS: 'yes' })
    } catch (err) {
      error = err
    }
    expect(error).toBeInstanceOf(SettingsError)
    const message = (error as Error).message
    expect(message.split('\n')).toHaveLength(1)
    expect(message).toContain('invalid setting SHARDS: expected an integer >= 1, got "0"')
    expect(message).toContain(
      'invalid setting LOG_LEVEL: expected one of fatal, error, warn, info, debug, trace, silent, got "loud"',
    )
    expect(message).toContain('invalid setting SANDBOX_URL: expected a URL, got "not a url"')
    expect(message).toMatch(
      /invalid setting MEDIA_ALLOW_PRIVATE_URLS: expected one of [a-z0-9, ]*true[a-z0-9, ]*, got "yes"/,
    )
  })

  it('SANDBOX_URL is http on a loopback address or https: the gateway trusts the root key its /trust names', () => {
    for (const url of [
      'http://127.0.0.1:7800',
      'http://127.8.9.10:7800/',
      'http://[::1]:7800',
      'http://localhost:7800',
      'http://LOCALHOST:7800',
      'https://sandbox.example',
      'https://10.0.0.5:7800',
    ]) {
      expect(loadSettings({ SANDBOX_URL: url }).SANDBOX_URL, url).toBe(url)
    }
    for (const url of [
      'http://10.0.0.5:7800',
      'http://sandbox.example:7800',
      'http://0.0.0.0:7800',
      'http://[::]:7800',
      'http://128.0.0.1',
      'http://localhost.example',
      'ws://127.0.0.1:7800',
      'ftp://127.0.0.1/',
    ]) {
      expect(() => loadSettings({ SANDBOX_URL: url }), url).toThrow(
        `invalid setting SANDBOX_URL: expected http on a loopback address (127.0.0.0/8, ::1, localhost) or an https URL, got ${JSON.stringify(url)}`,
      )
    }
  })

  it('puts every setting in exactly one part', () => {
    expect(new Set(SETTING_NAMES).size).toBe(SETTING_NAMES.length)
  })

  it('the Settings tables (docs/operating.md, docs/cluster.md) list every setting, and only real ones', () => {
    const listed = documentedSettings()
    expect([...SETTING_NAMES].filter(name => !listed.includes(name))).toEqual([])
    expect(listed.filter(name => !SETTING_NAMES.includes(name))).toEqual([])
  })

  it("the Settings tables list each part's settings under that part, in the file that declares them", () => {
    const slices: Record<string, object> = {
      'src/http/settings.ts': HTTP_SETTINGS,
      'src/actors/settings.ts': ACTOR_SETTINGS,
      'src/platform/settings.ts': PLATFORM_SETTINGS,
      'src/media/settings.ts': MEDIA_SETTINGS,
      'src/proxy/proxy-settings.ts': PROXY_SETTINGS,
      'src/storage/settings.ts': STORAGE_SETTINGS,
      'src/logger.ts': LOG_SETTINGS,
      'src/test-hooks.ts': TEST_HOOK_SETTINGS,
      'src/cluster/settings.ts': CLUSTER_SETTINGS,
    }
    const groups = documentedSettingGroups()
    expect([...groups.keys()].sort()).toEqual(Object.keys(slices).sort())
    for (const [file, fields] of Object.entries(slices)) expect(groups.get(file), file).toEqual(Object.keys(fields))
  })

  it('the Settings tables give the defaults the settings have', () => {
    const defaults = loadSettings({}) as Record<string, unknown>
    const listed = documentedSettingDefaults()
    expect(listed.size).toBeGreaterThan(70)
    const differ = [...listed]
      .filter(([name, value]) => {
        const actual = defaults[name]
        // an unset list (MEDIA_DNS_SERVERS, SESSION_PROXY_ALLOWED_HOSTS) is an empty one
        if (value === undefined && Array.isArray(actual)) return actual.length > 0
        // a digits-only string setting (CHANNEL_LIST_QUERY_ID) reads like a number in the table
        if (typeof actual === 'string') return actual !== String(value)
        return actual !== value
      })
      .map(([name, value]) => `${name}: docs ${String(value)}, settings ${String(defaults[name])}`)
    expect(differ).toEqual([])
  })
})
