/**
 * The phone logs the linked device out (sandbox fault `logoutDeviceOf`): the session returns to awaiting a QR as the
 * README says, its credentials are wiped from storage (read back from DATA_DIR after a stop), the registry keeps the
 * session with a new QR deadline, and after a restart it still awaits a QR rather than logging in with old keys.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchPaired, launchGateway, type Gateway, type Session } from '../../support/system/harness.js'
import { ALICE, BOB, faultWorld, sessionWhere, setFaults, clearFaults, storedState } from '../../support/system/faults.js'

describe('the phone logs the device out', () => {
  let world: Awaited<ReturnType<typeof faultWorld>>
  let gw: Gateway
  let session: Session

  beforeAll(async () => {
    world = await faultWorld()
    ;({ gw, session } = await launchPaired(world.sandbox.url, world.dataDir, ALICE))
  }, 180_000)
  afterAll(async () => { await gw?.proc.stop(); await world?.cleanup() })

  it('returns to awaiting a QR with its credentials wiped, and stays so across a restart', async () => {
    const started = Date.now()
    await setFaults(world.sandbox.url, { logoutDeviceOf: ALICE })
    const awaiting = await sessionWhere(gw, session, 'a new QR after the logout', b => !b.isConnected && b.qrcode !== '', 60_000)
    await clearFaults(world.sandbox.url)
    expect(awaiting).toMatchObject({ generatedId: '', name: '', isConnected: false })
    const refused = await gw.call('POST', '/message', session, { phone: BOB, type: 'text', text: 'logged out' })
    expect(refused).toEqual({ status: 500, body: { statusCode: 500, message: 'session not connected' } })

    expect(await gw.proc.stop()).toBe(0)
    const { sessions, creds } = await storedState(world.dataDir)
    const record = sessions.find(r => r.id === session.id)
    expect(record?.qrDeadline).toBeGreaterThan(started) // a new 3-minute window
    expect(creds.get(session.id)?.me).toBeUndefined() // no account left in the credentials

    gw = await launchGateway(world.sandbox.url, world.dataDir)
    const again = await sessionWhere(gw, session, 'a QR after the restart', b => b.qrcode !== '', 60_000)
    expect(again).toMatchObject({ generatedId: '', isConnected: false })
  }, 180_000)
})
