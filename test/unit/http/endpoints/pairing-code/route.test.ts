/**
 * POST /session/pairing-code in-process on the fake session system (docs/api.md): the phone read like
 * every phone of the API, the command it sends, the answer's shape, the errors a session passes through, and the
 * per-session rate (one request per PAIRING_CODE_INTERVAL_MS, counted after validation, one bucket per session).
 */
import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { GatewayError } from '../../../../../src/protocol/errors.js'
import { expectError } from '../../../../support/expect-error.js'
import { makeApp } from '../../../../support/fakes/fake-system.js'

const PATH = '/session/pairing-code'

describe('POST /session/pairing-code', () => {
  it('sends the number as digits and answers the code with its expiry, not to be cached', async () => {
    const { app, auth, system } = makeApp()
    const res = await request(app).post(PATH).set(auth).send({ phone: '+1 (555) 000-0001' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ code: 'ABCD-EFGH', expiresAt: '2030-01-01T00:00:00.000Z' })
    expect(res.headers['cache-control']).toBe('no-store')
    expect(system.last()).toEqual({ type: 'requestPairingCode', phone: '15550000001' })
  })

  it('says what is wrong with the body, and asks the session nothing', async () => {
    const { app, auth, system } = makeApp()
    const post = (body: unknown) =>
      request(app)
        .post(PATH)
        .set(auth)
        .send(body as object)
    expectError(await post({}), 400, 'phone should not be empty')
    expectError(await post({ phone: '' }), 400, 'phone should not be empty')
    expectError(await post({ phone: 15550000001 }), 400, 'phone must be a string')
    expectError(await post({ phone: '12345' }), 400, 'phone must be a valid phone number')
    expectError(await post({ phone: '15550000001@s.whatsapp.net' }), 400, 'phone must be a valid phone number')
    expectError(await post([{ phone: '15550000001' }]), 400, 'body must be a JSON object')
    expectError(await request(app).post(PATH).set(auth), 400, 'phone should not be empty')
    expectError(
      await request(app).post(PATH).set(auth).type('text/plain').send('15550000001'),
      415,
      'content-type must be application/json',
    )
    expect(system.commands).toHaveLength(0)
  })

  it("passes the session's refusals through in the spec's shape", async () => {
    const { app, auth, system } = makeApp({ PAIRING_CODE_INTERVAL_MS: '0' })
    const post = () => request(app).post(PATH).set(auth).send({ phone: '15550000001' })
    system.onRun = () => {
      throw new GatewayError('PAIRING_CODE_NOT_NEEDED')
    }
    expectError(await post(), 409, 'session is already paired; it needs no pairing code')
    system.onRun = () => {
      throw new GatewayError('PAIRING_CODE_REFUSED', { platformCode: 429 })
    }
    expectError(await post(), 500, 'the platform refused the pairing code request (error 429)')
    system.onRun = () => {
      throw new GatewayError('SESSION_CONNECTING')
    }
    const connecting = await post()
    expectError(connecting, 503, 'the session is connecting to the platform, retry in 1 s')
    expect(connecting.headers['retry-after']).toBe('1')
  })

  it('takes one request per PAIRING_CODE_INTERVAL_MS per session; a 400 costs none, a neighbour is not held up', async () => {
    const { app, auth, system } = makeApp({ PAIRING_CODE_INTERVAL_MS: '30000' })
    const neighbour = system.add('neighbour', 'secret-neighbour')
    const post = (headers: Record<string, string>, phone: string) =>
      request(app).post(PATH).set(headers).send({ phone })
    expect((await post(auth, '123')).status).toBe(400) // a typo first
    expect((await post(auth, '15550000001')).status).toBe(200)
    const limited = await post(auth, '15550000001')
    expectError(limited, 429, 'too many pairing code requests for this session, retry in 30 s')
    expect(limited.headers['retry-after']).toBe('30')
    expect((await post({ id: neighbour.id, 'session-id': neighbour.sessionId }, '15550000002')).status).toBe(200)
    expect(system.commands.map(c => c.id)).toEqual([auth.id, neighbour.id])
  })
})
