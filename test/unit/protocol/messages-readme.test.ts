/**
 * The README's Errors table and the message catalogue (src/protocol/messages.ts) hold the same messages: one added
 * to either without the other fails here, as the Settings table is held to the config (test/unit/config.test.ts).
 */
import { describe, expect, it } from 'vitest'
import { ERROR_STATUS, type ErrorCode } from '../../../src/protocol/errors.js'
import { CLIENT_MESSAGES, ERROR_MESSAGE } from '../../../src/protocol/messages.js'
import { readmeErrors } from '../../support/readme.js'

const rows = readmeErrors()
const listed = rows.map(row => row.message)

describe('README: the Errors table', () => {
  it('lists every message of the catalogue, and only those, once each', () => {
    expect(listed.length).toBeGreaterThan(50)
    expect(CLIENT_MESSAGES.filter(message => !listed.includes(message))).toEqual([])
    expect(listed.filter(message => !CLIENT_MESSAGES.includes(message))).toEqual([])
    expect(listed.filter((message, i) => listed.indexOf(message) !== i)).toEqual([])
  })

  it("gives each fixed message of an error code that code's status", () => {
    for (const [code, message] of Object.entries(ERROR_MESSAGE)) {
      expect(rows.find(row => row.message === message)?.status, message).toBe(ERROR_STATUS[code as ErrorCode])
    }
  })
})
