/**
 * DATA_KEY as a setting (src/storage/data-key.ts): 32 bytes written as hex, base64 or base64url; anything else stops
 * the start with one clear line; empty is unset.
 */
import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { loadSettings } from '../../../src/gateway-settings.js'
import { parseDataKey } from '../../../src/storage/data-key.js'

describe('DATA_KEY setting', () => {
  it('accepts 32 bytes as hex, base64 or base64url and refuses anything else with one clear line', () => {
    const bytes = randomBytes(32)
    for (const text of [bytes.toString('hex'), bytes.toString('base64'), bytes.toString('base64url')]) {
      expect(parseDataKey(text)?.equals(bytes)).toBe(true)
      expect(loadSettings({ DATA_KEY: text }).DATA_KEY).toBe(text)
    }
    for (const bad of [
      'short',
      bytes.toString('hex').slice(2),
      randomBytes(31).toString('base64'),
      `${'z'.repeat(64)}`,
    ]) {
      expect(() => loadSettings({ DATA_KEY: bad })).toThrow(
        'DATA_KEY: must be 32 bytes written as 64 hex characters or as base64 (44 characters)',
      )
    }
    expect(loadSettings({ DATA_KEY: '' }).DATA_KEY).toBeUndefined()
  })
})
