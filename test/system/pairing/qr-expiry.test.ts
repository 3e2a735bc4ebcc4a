/**
 * An unscanned session is deleted once its QR lifetime passes: GET /session turns from 200 into 404
 * `session not found`. The lifetime is shortened here; the default stays about 3 minutes.
 */
import { describe, expect, it } from 'vitest'
import { reply, withSession } from '../../support/system/harness.js'
import { gatewayWorld } from '../../support/system/paired-gateway.js'
import { waitFor } from '../../support/wait-for.js'

describe('QR expiry', () => {
  const world = gatewayWorld({ env: { SESSION_QR_LIFETIME_MS: '6000' } })

  it('shows a QR, then answers 404 session not found once the lifetime passes', async () => {
    const s = await world.gw.createSession()
    await waitFor('a QR', async () => (await world.gw.session(s)).body.qrcode || undefined, 60_000)
    const gone = await waitFor(
      '404 after expiry',
      async () => {
        const r = await world.gw.session(s)
        return r.status === 404 ? r : undefined
      },
      60_000,
    )
    expect(gone.body).toEqual({ statusCode: 404, message: 'session not found' })
    // and it stays gone for every endpoint
    const send = await reply(
      world.gw.api.POST('/message', withSession(s, { body: { phone: '15550000002', type: 'text', text: 'x' } })),
    )
    expect(send.status).toBe(404)
  }, 90_000)
})
