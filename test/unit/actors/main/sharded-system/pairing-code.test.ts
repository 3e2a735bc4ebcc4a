/**
 * @module test/unit/actors/main/sharded-system/pairing-code
 * The `pairingCode` command on real actors with the fake link: answered for a session awaiting pairing, published
 * for the QR page (never past the QR deadline), gone with the link that registered it or once the session pairs;
 * refused for a paired session (409) and while the session has no link (503, retry).
 */
import { afterEach, describe, expect, it } from 'vitest'
import { GatewayError } from '../../../../../src/protocol/errors.js'
import {
  cleanup,
  fake,
  fakeEvents,
  pairedSession,
  snapshotOf,
  startSystem,
  waitForQr,
} from '../../../../support/actor-system.js'
import { waitFor } from '../../../../support/wait-for.js'

afterEach(cleanup)

const request = { type: 'requestPairingCode' as const, phone: '15550000001' }

const refusal = async (work: Promise<unknown>) => {
  const err = await work.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(err).toBeInstanceOf(GatewayError)
  return { code: (err as GatewayError).code, message: (err as GatewayError).message }
}

describe('pairing code', () => {
  it('answers a code for a session awaiting its QR, shows it until the QR deadline, and drops it with the link', async () => {
    const system = await startSystem({ SESSION_QR_LIFETIME_MS: '30000' })
    const events = fakeEvents()
    const s = await system.createSession()
    await waitForQr(system, s)
    const deadline = snapshotOf(system, s)!.qrDeadline!
    // the fake link's code works for a minute; the session is deleted sooner: the deadline wins
    const code = await system.run(s.id, request)
    expect(code).toEqual({ code: 'ABCD-EFGH', expiresAt: deadline })
    // published for the QR page (the snapshot travels apart from the reply)
    await waitFor('the code published', () => snapshotOf(system, s)?.pairingCode, 20_000, 25)
    expect(snapshotOf(system, s)?.pairingCode).toEqual(code)
    expect(snapshotOf(system, s)?.qrcode).not.toBe('') // the QR stays: a scan still links
    expect(events.filter(e => e.event === 'pairing-code')).toEqual([
      { session: s.id, event: 'pairing-code', phone: '15550000001' },
    ])
    fake(s.id, 'drop')
    await waitFor('the code gone with its link', () => snapshotOf(system, s)?.pairingCode === null, 20_000, 25)
  })

  it('a scan while a code is pending pairs the session, and the code is gone', async () => {
    const system = await startSystem()
    const s = await system.createSession()
    await waitForQr(system, s)
    await system.run(s.id, request)
    fake(s.id, 'scan')
    await waitFor('connected', () => snapshotOf(system, s)?.isConnected, 20_000, 25)
    expect(snapshotOf(system, s)?.pairingCode).toBeNull()
  })

  it('refuses a paired session with 409', async () => {
    const system = await startSystem()
    const s = await pairedSession(system)
    expect(await refusal(system.run(s.id, request))).toEqual({
      code: 'PAIRING_CODE_NOT_NEEDED',
      message: 'session is already paired; it needs no pairing code',
    })
  })

  it('answers 503 SESSION_CONNECTING while the session waits to reconnect, with no link', async () => {
    const system = await startSystem({ RECONNECT_MIN_MS: '60000', RECONNECT_MAX_MS: '60000' })
    const s = await system.createSession()
    await waitForQr(system, s)
    const before = snapshotOf(system, s)!.version
    fake(s.id, 'drop') // an unpaired session reconnects after the backoff; meanwhile it has no link
    await waitFor('the drop published', () => snapshotOf(system, s)!.version > before, 20_000, 25)
    expect(await refusal(system.run(s.id, request))).toEqual({
      code: 'SESSION_CONNECTING',
      message: 'the session is connecting to the platform, retry in 1 s',
    })
  })
})
