import { describe, expect, it } from 'vitest'
import { closeReasonOf, disconnectFacts, QR_REFS_ENDED_MESSAGE } from '../../../../src/platform/baileys/close-reason.js'

const reason = (statusCode: number | undefined, message = 'x', paired = true, closedByUs = false) =>
  closeReasonOf({ statusCode, message, paired, closedByUs })

describe('close reason mapping', () => {
  it('maps the platform status codes', () => {
    expect(reason(515)).toBe('restart-required')
    expect(reason(401)).toBe('logged-out')
    expect(reason(403)).toBe('logged-out')
    expect(reason(419)).toBe('logged-out')
    expect(reason(440)).toBe('replaced')
    expect(reason(428)).toBe('connection-lost')
    expect(reason(503)).toBe('connection-lost')
    expect(reason(undefined)).toBe('connection-lost')
  })

  it('recognises QR expiry only while never paired', () => {
    expect(reason(408, QR_REFS_ENDED_MESSAGE, false)).toBe('qr-expired')
    expect(reason(408, QR_REFS_ENDED_MESSAGE, true)).toBe('connection-lost')
    expect(reason(408, 'Connection was lost', false)).toBe('connection-lost')
  })

  it('our own close wins over any code', () => {
    expect(reason(401, 'x', true, true)).toBe('closed-by-us')
    expect(reason(515, 'x', true, true)).toBe('closed-by-us')
  })

  it('reads the facts from a Baileys Boom', () => {
    const facts = disconnectFacts(Object.assign(new Error(QR_REFS_ENDED_MESSAGE), { output: { statusCode: 408 } }))
    expect(facts).toEqual({ statusCode: 408, message: QR_REFS_ENDED_MESSAGE })
    expect(disconnectFacts(undefined)).toEqual({ statusCode: undefined, message: undefined })
  })
})
