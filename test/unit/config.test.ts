/**
 * The settings (src/config.ts): every bad value named on one line with what it expects, SANDBOX_URL only loopback
 * http or https, and the README's Settings table in step with the settings. That a bad setting stops the real
 * gateway at start is test/system/ops/config-at-start.test.ts.
 */
import { describe, expect, it } from 'vitest'
import { loadConfig, SETTING_NAMES } from '../../src/config.js'
import { ConfigError } from '../../src/config-error.js'
import { readmeSettings } from '../support/readme.js'

describe('settings', () => {
  it('names every bad setting on that one line, with what it expects', () => {
    let error: unknown
    try {
      loadConfig({ SHARDS: '0', LOG_LEVEL: 'loud', SANDBOX_URL: 'not a url', MEDIA_ALLOW_PRIVATE_URLS: 'yes' })
    } catch (err) {
      error = err
    }
    expect(error).toBeInstanceOf(ConfigError)
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
      expect(loadConfig({ SANDBOX_URL: url }).SANDBOX_URL, url).toBe(url)
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
      expect(() => loadConfig({ SANDBOX_URL: url }), url).toThrow(
        `invalid setting SANDBOX_URL: expected http on a loopback address (127.0.0.0/8, ::1, localhost) or an https URL, got ${JSON.stringify(url)}`,
      )
    }
  })

  it('the README Settings table lists every setting, and only real ones', () => {
    const listed = readmeSettings()
    expect([...SETTING_NAMES].filter(name => !listed.includes(name))).toEqual([])
    expect(listed.filter(name => !SETTING_NAMES.includes(name))).toEqual([])
  })
})
