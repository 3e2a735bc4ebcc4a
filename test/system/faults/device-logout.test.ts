/**
 * The phone logs the linked device out (sandbox fault `logoutDeviceOf`): the session returns to awaiting a QR as the
 * README says, its credentials are wiped from storage (read back from DATA_DIR after a stop), the registry keeps the
 * session with a new QR deadline, and after a restart it still awaits a QR rather than logging in with old keys.
 */
import { describe, expect, it } from 'vitest'
import { launchGateway } from '../../support/system/harness.js'
import { pairedGateway } from '../../support/system/paired-gateway.js'
import {
  ALICE,
  BOB,
  faultWorld,
  sessionWhere,
  setFaults,
  clearFaults,
  storedState,
} from '../../support/system/faults.js'

describe('the phone logs the device out', () => {
  const paired = pairedGateway(ALICE, { start: faultWorld, timeoutMs: 180_000 })

  it('returns to awaiting a QR with its credentials wiped, and stays so across a restart', async () => {
    const started = Date.now()
    await setFaults(paired.sandbox.url, { logoutDeviceOf: ALICE })
    const awaiting = await sessionWhere(
      paired.gw,
      paired.session,
      'a new QR after the logout',
      b => !b.isConnected && b.qrcode !== '',
      60_000,
    )
    await clearFaults(paired.sandbox.url)
    expect(awaiting).toMatchObject({ generatedId: '', name: '', isConnected: false })
    const refused = await paired.gw.call('POST', '/message', paired.session, {
      phone: BOB,
      type: 'text',
      text: 'logged out',
    })
    expect(refused).toEqual({ status: 500, body: { statusCode: 500, message: 'session not connected' } })

    expect(await paired.gw.proc.stop()).toBe(0)
    const { sessions, creds } = await storedState(paired.dataDir)
    const record = sessions.find(r => r.id === paired.session.id)
    expect(record?.qrDeadline).toBeGreaterThan(started) // a new 3-minute window
    expect(creds.get(paired.session.id)?.me).toBeUndefined() // no account left in the credentials

    paired.gw = await launchGateway(paired.sandbox.url, paired.dataDir)
    const again = await sessionWhere(paired.gw, paired.session, 'a QR after the restart', b => b.qrcode !== '', 60_000)
    expect(again).toMatchObject({ generatedId: '', isConnected: false })
  }, 180_000)
})
