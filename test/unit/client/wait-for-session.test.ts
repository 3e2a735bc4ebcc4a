/**
 * The typed client's `waitForSession` (src/client/wait-for-session.ts) against the app on the fake session system:
 * it returns a state that already holds at once, waits at the gateway (not by polling) for one to come, follows a
 * 429 by its Retry-After, and rejects with the gateway's error (404 once the session is gone) or on its time-out;
 * an aborted wait frees its slot at the gateway.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { createGatewayClient, SessionWaitError, waitForSession } from '../../../src/client/index.js'
import { type ServedApp, serveApp } from '../../support/fakes/fake-system.js'
import { waitFor } from '../../support/wait-for.js'

let served: ServedApp | undefined
afterEach(async () => {
  served?.server.closeAllConnections()
  await new Promise(resolve => served?.server.close(resolve))
  served = undefined
})

async function setUp(env: NodeJS.ProcessEnv = {}) {
  served = await serveApp(env)
  const s = served.system.add('s-new', 'secret-new', {
    isConnected: false,
    qrcode: '',
    qrDeadline: Date.now() + 60_000,
  })
  return { t: served, gateway: createGatewayClient(served.url), session: { id: s.id, sessionId: s.sessionId } }
}

const parked = (t: ServedApp, count = 1) =>
  waitFor(`${count} waiting request(s)`, async () => (await t.waiting()) === count, 5_000, 10)

describe('waitForSession', () => {
  it('returns the current Session when it already is in the state waited for', async () => {
    const { gateway, session } = await setUp()
    const s = await waitForSession(gateway, session, s => !s.isConnected)
    expect(s).toMatchObject({ id: 's-new', sessionId: 'secret-new', isConnected: false })
  })

  it('waits at the gateway for the QR, then for the pairing, each returned as it happens', async () => {
    const { t, gateway, session } = await setUp()
    const qr = waitForSession(gateway, session, s => s.qrcode !== '')
    await parked(t)
    t.system.update(session.id, { qrcode: 'QR1' })
    expect((await qr).qrcode).toBe('QR1')
    const connected = waitForSession(gateway, session, s => s.isConnected)
    await parked(t)
    t.system.update(session.id, { qrcode: 'QR2' }) // a rotation: not what it waits for, it waits on
    await parked(t)
    t.system.update(session.id, { qrcode: '', isConnected: true, name: 'Ann', qrDeadline: null })
    expect(await connected).toMatchObject({ isConnected: true, name: 'Ann' })
    expect(await t.waiting()).toBe(0)
  })

  it("rejects with the gateway's 404 once the session is gone", async () => {
    const { t, gateway, session } = await setUp()
    const connected = waitForSession(gateway, session, s => s.isConnected)
    await parked(t)
    await t.system.deleteSession(session.id)
    await expect(connected).rejects.toMatchObject({
      name: 'SessionWaitError',
      statusCode: 404,
      message: 'session not found',
    })
  })

  it('a 429 is waited out (Retry-After), then the wait goes on', async () => {
    const { t, gateway, session } = await setUp({ SESSION_WAITS_PER_SESSION: '1' })
    const first = waitForSession(gateway, session, s => s.qrcode === 'QR1')
    await parked(t)
    const second = waitForSession(gateway, session, s => s.qrcode === 'QR1') // refused, retries in 2 s
    await waitFor('the refusal', () => t.logs.some(l => l.msg === 'request' && l.status === 429), 5_000, 10)
    t.system.update(session.id, { qrcode: 'QR1' })
    expect((await first).qrcode).toBe('QR1')
    expect((await second).qrcode).toBe('QR1')
  })

  it('gives up after timeoutMs with a SessionWaitError, and an abort frees the slot at the gateway at once', async () => {
    const { t, gateway, session } = await setUp()
    const err = await waitForSession(gateway, session, s => s.isConnected, { timeoutMs: 300 }).catch(e => e)
    expect(err).toBeInstanceOf(SessionWaitError)
    expect(err.statusCode).toBe(0)
    await parked(t, 0)
    const controller = new AbortController()
    const aborted = waitForSession(gateway, session, s => s.isConnected, { signal: controller.signal }).catch(e => e)
    await parked(t)
    controller.abort()
    expect(await aborted).toBe(controller.signal.reason)
    await parked(t, 0)
  })
})
