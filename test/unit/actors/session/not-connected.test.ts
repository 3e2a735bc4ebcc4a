/**
 * Why a session is not connected, as GET /session says it (src/actors/session/not-connected.ts): a code per close
 * that explains something, a sentence that names what to do, and nothing for the routine closes.
 */
import { describe, expect, it } from 'vitest'
import { notConnectedOf, outlivesQr } from '../../../../src/actors/session/not-connected.js'

const learned = { version: '2.3000.1050000000', pinned: false }

describe('notConnectedOf', () => {
  it('a refused client version names the version, and the setting when it is pinned', () => {
    expect(notConnectedOf('client-version-refused', '405 Connection Failure', learned)).toEqual({
      reason: 'client-version-refused',
      message:
        'the platform refused web client version 2.3000.1050000000 (405): looking up the current one and trying again',
    })
    const pinned = notConnectedOf('client-version-refused', '405 Connection Failure', {
      version: '2.1.1',
      pinned: true,
    })
    expect(pinned?.message).toContain('2.1.1 (405), pinned by PLATFORM_CLIENT_VERSION')
    const bundled = notConnectedOf('client-version-refused', '405', { version: undefined, pinned: false })
    expect(bundled?.message).toContain("the client library's bundled version")
  })

  it("a proxy failure quotes the proxy's words without Baileys' wrapping", () => {
    const detail = '500 WebSocket Error (proxy socks5://alice:***@127.0.0.1:1080: refused the tunnel (HTTP 403))'
    expect(notConnectedOf('proxy-refused', detail, learned)).toEqual({
      reason: 'proxy-refused',
      message:
        "the session's proxy failed: proxy socks5://alice:***@127.0.0.1:1080: refused the tunnel (HTTP 403); trying again",
    })
  })

  it('says what the owner does after a logout, a refused account or a take-over', () => {
    expect(notConnectedOf('logged-out', '401 x', learned)?.message).toContain('scan the new QR')
    expect(notConnectedOf('account-refused', '403 Connection Failure', learned)?.message).toBe(
      'the platform refused the account (403): it may be banned or restricted, see the phone',
    )
    expect(notConnectedOf('replaced', '440', learned)?.reason).toBe('replaced')
    expect(notConnectedOf('connection-lost', '428', learned)?.reason).toBe('connection-lost')
  })

  it('the routine closes explain nothing', () => {
    expect(notConnectedOf('restart-required', '515', learned)).toBeUndefined()
    expect(notConnectedOf('qr-expired', '408', learned)).toBeUndefined()
    expect(notConnectedOf('closed-by-us', 'closed', learned)).toBeUndefined()
  })

  it('only the reasons that say why pairing started over outlive the new QR', () => {
    expect(outlivesQr(notConnectedOf('logged-out', '401', learned))).toBe(true)
    expect(outlivesQr(notConnectedOf('account-refused', '403', learned))).toBe(true)
    expect(outlivesQr(notConnectedOf('client-version-refused', '405', learned))).toBe(false)
    expect(outlivesQr(undefined)).toBe(false)
  })
})
