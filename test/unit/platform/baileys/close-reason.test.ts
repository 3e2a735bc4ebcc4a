import { describe, expect, it } from 'vitest'
import {
  closeReasonOf,
  disconnectFacts,
  isProxyError,
  QR_REFS_ENDED_MESSAGE,
} from '../../../../src/platform/baileys/close-reason.js'
import { ProxyError } from '../../../../src/proxy/proxy-agent.js'

const reason = (statusCode: number | undefined, message = 'x', paired = true, closedByUs = false) =>
  closeReasonOf({ statusCode, message, paired, closedByUs })

describe('close reason mapping', () => {
  it('maps the platform status codes', () => {
    expect(reason(515)).toBe('restart-required')
    expect(reason(401)).toBe('logged-out')
    expect(reason(419)).toBe('logged-out')
    // the platform refusing the account, and the web client's version, at login
    expect(reason(402)).toBe('account-refused')
    expect(reason(403)).toBe('account-refused')
    expect(reason(405)).toBe('client-version-refused')
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
    expect(facts).toEqual({ statusCode: 408, message: QR_REFS_ENDED_MESSAGE, proxyFailed: false })
    expect(disconnectFacts(undefined)).toEqual({ statusCode: undefined, message: undefined, proxyFailed: false })
  })

  it("a failure at the session's proxy is proxy-refused, however Baileys wraps it", () => {
    const refused = new ProxyError('proxy socks5://alice:***@127.0.0.1:1080: refused the tunnel (HTTP 403)')
    // Baileys' WebSocket error: a Boom with the original error as `data`, status 500
    const wrapped = Object.assign(new Error(`WebSocket Error (${refused.message})`), {
      output: { statusCode: 500 },
      data: refused,
    })
    expect(closeReasonOf({ ...disconnectFacts(wrapped), paired: true, closedByUs: false })).toBe('proxy-refused')
    expect(isProxyError(refused)).toBe(true)
    expect(isProxyError(new Error('proxy socks5://x: words alone are not a proxy failure'))).toBe(false)
    // our own close still wins
    expect(closeReasonOf({ ...disconnectFacts(wrapped), paired: true, closedByUs: true })).toBe('closed-by-us')
  })
})
