/**
 * The view-token book (src/actors/main/view-tokens.ts) with a hand-driven clock: tokens expire with the QR window even
 * while the session lives on, die for good once a snapshot shows the session paired (even unseen), are revoked with
 * the session, and are capped per session.
 */
import { describe, expect, it } from 'vitest'
import { MAX_TOKENS_PER_SESSION, ViewTokens } from '../../../../src/actors/main/view-tokens.js'
import type { SessionSnapshot } from '../../../../src/protocol/snapshot.js'
import type { GatewayError } from '../../../../src/protocol/errors.js'
import { snapshotFor } from '../../../support/fakes/fake-system.js'

function book() {
  let now = 1_000_000
  const sessions = new Map<string, SessionSnapshot>([
    ['s1', snapshotFor('s1', { qrcode: 'QR1', qrDeadline: now + 180_000 })],
  ])
  const tokens = new ViewTokens(
    id => sessions.get(id),
    () => now,
  )
  return {
    tokens,
    sessions,
    advance: (ms: number) => {
      now += ms
    },
    now: () => now,
  }
}

const codeOf = (f: () => unknown): string | undefined => {
  try {
    f()
  } catch (err) {
    return (err as GatewayError).code
  }
  return undefined
}

describe('view tokens', () => {
  it('show a pending pairing code until it expires, by the clock, while the QR stays', () => {
    const { tokens, sessions, advance, now } = book()
    const { token } = tokens.issue('s1')
    const pairingCode = { code: 'ABCD-EFGH', expiresAt: now() + 60_000 }
    sessions.set('s1', { ...sessions.get('s1')!, pairingCode })
    expect(tokens.view(token).pairingCode).toEqual(pairingCode)
    advance(60_000)
    expect(tokens.view(token)).toMatchObject({ qrcode: 'QR1', pairingCode: null })
  })

  it('show the QR until the QR window closes, then 404 although the session still exists', () => {
    const { tokens, advance } = book()
    const { token, expiresAt } = tokens.issue('s1')
    expect(expiresAt).toBe(1_000_000 + 180_000)
    expect(tokens.view(token)).toEqual({ id: 's1', qrcode: 'QR1', expiresAt, pairingCode: null })
    advance(179_999)
    expect(tokens.view(token).qrcode).toBe('QR1')
    advance(1)
    expect(codeOf(() => tokens.view(token))).toBe('VIEW_LINK_NOT_FOUND')
    expect(tokens.size).toBe(0)
  })

  it('end for good when a snapshot shows the session paired, even if nobody looked in between', () => {
    const { tokens, sessions } = book()
    const { token } = tokens.issue('s1')
    const waiting = sessions.get('s1')!
    const connected = {
      ...waiting,
      state: 'connected' as const,
      isConnected: true,
      generatedId: '1555:1@s.whatsapp.net',
      qrcode: '',
      qrDeadline: null,
    }
    tokens.observe(connected)
    // the phone logs the device out: awaiting a QR again, with a new window
    sessions.set('s1', { ...waiting, qrDeadline: waiting.qrDeadline! + 60_000 })
    expect(codeOf(() => tokens.view(token))).toBe('VIEW_LINK_USED')
  })

  it('are revoked with their session, are refused for a paired or unknown one, and at most 5 live per session', () => {
    const { tokens, sessions } = book()
    const first = tokens.issue('s1').token
    tokens.revoke('s1')
    expect(codeOf(() => tokens.view(first))).toBe('VIEW_LINK_NOT_FOUND')

    const issued = Array.from({ length: MAX_TOKENS_PER_SESSION + 1 }, () => tokens.issue('s1').token)
    expect(tokens.size).toBe(MAX_TOKENS_PER_SESSION)
    expect(codeOf(() => tokens.view(issued[0]!))).toBe('VIEW_LINK_NOT_FOUND')
    expect(tokens.view(issued.at(-1)!).qrcode).toBe('QR1')

    sessions.delete('s1')
    expect(codeOf(() => tokens.view(issued.at(-1)!))).toBe('VIEW_LINK_NOT_FOUND')
    expect(codeOf(() => tokens.issue('s1'))).toBe('SESSION_NOT_FOUND')
    sessions.set('s2', snapshotFor('s2', { state: 'connected', isConnected: true, qrDeadline: null }))
    expect(codeOf(() => tokens.issue('s2'))).toBe('SESSION_ALREADY_PAIRED')
  })
})
