/**
 * The Errors table of docs/api.md and the error table (src/protocol/error-table.ts, with the validation lines of
 * src/protocol/messages.ts) hold the same messages with the same statuses: one added to either without the other
 * fails here, as the Settings table is held to the settings (test/unit/gateway-settings.test.ts).
 */
import { describe, expect, it } from 'vitest'
import { ERRORS } from '../../../../src/protocol/errors.js'
import { CLIENT_MESSAGES } from '../../../../src/protocol/messages.js'
import { documentedErrors } from '../../../support/readme.js'

const rows = documentedErrors()
const listed = rows.map(row => row.message)

describe('docs/api.md: the Errors table', () => {
  it('lists every message a client can get, and only those, once each', () => {
    expect(listed.length).toBeGreaterThan(50)
    expect(CLIENT_MESSAGES.filter(message => !listed.includes(message))).toEqual([])
    expect(listed.filter(message => !CLIENT_MESSAGES.includes(message))).toEqual([])
    expect(listed.filter((message, i) => listed.indexOf(message) !== i)).toEqual([])
  })

  it("gives each code's message that code's status", () => {
    for (const [code, { status, message }] of Object.entries(ERRORS)) {
      if (code === 'VALIDATION') continue // its message is its lines, each a row of its own
      expect(rows.find(row => row.message === message)?.status, message).toBe(status)
    }
  })

  it('gives every validation line the status 400', () => {
    const codeMessages = new Set(Object.values(ERRORS).map(entry => entry.message as string))
    const lines = rows.filter(row => !codeMessages.has(row.message))
    expect(lines.length).toBeGreaterThan(15)
    expect(lines.filter(row => row.status !== 400)).toEqual([])
  })
})
