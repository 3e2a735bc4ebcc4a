/**
 * The close-reason table of a session (what a user sees after the platform connection ends): a restart after
 * pairing changes nothing visible, a logout on the phone goes back to a QR, a replaced connection never loops,
 * and a lost connection reconnects, showing "reconnecting" only for a paired session.
 */
import { describe, expect, it } from 'vitest'
import { afterClose } from '../../../../src/actors/session/transitions.js'

describe('afterClose', () => {
  it('reopens at once after the 515 restart, paired or not', () => {
    expect(afterClose('restart-required', true)).toEqual({ next: 'reopen' })
    expect(afterClose('restart-required', false)).toEqual({ next: 'reopen' })
  })

  it('asks for fresh QR refs while unpaired; a paired session treats it as a lost connection', () => {
    expect(afterClose('qr-expired', false)).toEqual({ next: 'reopen' })
    expect(afterClose('qr-expired', true)).toEqual({ next: 'reconnect', state: 'reconnecting' })
  })

  it('restarts pairing when the phone logs the device out', () => {
    expect(afterClose('logged-out', true)).toEqual({ next: 'restart-pairing' })
  })

  it('stays down when replaced by another connection, with a warning', () => {
    const r = afterClose('replaced', true)
    expect(r).toMatchObject({ next: 'stay-down', state: 'disconnected' })
    expect(r.next === 'stay-down' && r.warning).toMatch(/not reconnecting/)
  })

  it('reconnects after a lost connection: "reconnecting" when paired, still "awaiting-qr" when not', () => {
    expect(afterClose('connection-lost', true)).toEqual({ next: 'reconnect', state: 'reconnecting' })
    expect(afterClose('connection-lost', false)).toEqual({ next: 'reconnect', state: 'awaiting-qr' })
  })

  it('reconnects after a refused client version or a failed proxy (the reason shows meanwhile)', () => {
    expect(afterClose('client-version-refused', true)).toEqual({ next: 'reconnect', state: 'reconnecting' })
    expect(afterClose('client-version-refused', false)).toEqual({ next: 'reconnect', state: 'awaiting-qr' })
    expect(afterClose('proxy-refused', true)).toEqual({ next: 'reconnect', state: 'reconnecting' })
  })

  it('an account the platform refuses goes back to a QR, as a logout does', () => {
    expect(afterClose('account-refused', true)).toEqual({ next: 'restart-pairing' })
  })
})
