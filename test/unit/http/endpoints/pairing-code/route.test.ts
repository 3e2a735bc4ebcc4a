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

describe('POST /session/pairing-code: codes per phone number and per client', () => {
  /** `count` unpaired sessions (showing a QR), the way one client holds several to ask codes through. */
  function unpaired(system: ReturnType<typeof makeApp>['system'], count: number, prefix = 'unpaired') {
    return Array.from({ length: count }, (_, i) => {
      const s = system.add(`${prefix}-${i}`, `secret-${prefix}-${i}`, {
        state: 'awaiting-qr',
        isConnected: false,
        qrcode: 'iVBORw0KGgo=',
        qrDeadline: Date.now() + 60_000,
      })
      return { id: s.id, 'session-id': s.sessionId }
    })
  }

  it('gives one number PAIRING_CODES_PER_PHONE_PER_HOUR codes whichever sessions ask; another number still gets its own', async () => {
    // the attack seen: one address, several unpaired sessions, 20 codes for a stranger's number in seconds
    const { app, system } = makeApp({ PAIRING_CODE_INTERVAL_MS: '0', PAIRING_CODES_PER_PHONE_PER_HOUR: '3' })
    const sessions = unpaired(system, 5)
    const statuses: number[] = []
    for (let i = 0; i < 20; i++) {
      const res = await request(app)
        .post(PATH)
        .set(sessions[i % sessions.length]!)
        .send({ phone: i % 2 ? '+1 555 000 0009' : '15550000009' })
      statuses.push(res.status)
      if (res.status === 429) {
        expectError(res, 429, expect.stringMatching(/^too many pairing codes for this phone number, retry in \d+ s$/))
        // the next of the 3 an hour is 20 minutes away
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(1100)
        expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(1200)
      }
    }
    expect(statuses).toEqual([200, 200, 200, ...new Array(17).fill(429)])
    expect(system.commands).toHaveLength(3) // the platform was asked three times, no more
    expect((await request(app).post(PATH).set(sessions[0]!).send({ phone: '15550000010' })).status).toBe(200)
  })

  it('gives one client PAIRING_CODES_PER_CLIENT_PER_HOUR codes whatever the numbers; its neighbour is not held up', async () => {
    const { app, system } = makeApp({
      TRUST_PROXY: 'loopback',
      PAIRING_CODE_INTERVAL_MS: '0',
      PAIRING_CODES_PER_CLIENT_PER_HOUR: '4',
    })
    const [mine, neighbours] = [unpaired(system, 4, 'mine'), unpaired(system, 1, 'neighbour')]
    const post = (session: Record<string, string>, client: string, phone: string) =>
      request(app).post(PATH).set(session).set('x-forwarded-for', client).send({ phone })
    const statuses: number[] = []
    for (let i = 0; i < 8; i++) statuses.push((await post(mine[i % 4]!, '198.51.100.7', `1555000010${i}`)).status)
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429, 429, 429])
    const refused = await post(mine[0]!, '198.51.100.7', '15550000200')
    expectError(
      refused,
      429,
      expect.stringMatching(/^too many pairing code requests from this client, retry in \d+ s$/),
    )
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(800) // 4 an hour: the next in 15 minutes
    expect((await post(neighbours[0]!, '203.0.113.9', '15550000200')).status).toBe(200)
  })

  it("counts neither a number's refusal against the client, nor a 400, nor a paired session's request", async () => {
    const { app, system, auth } = makeApp({
      PAIRING_CODE_INTERVAL_MS: '0',
      PAIRING_CODES_PER_PHONE_PER_HOUR: '1',
      PAIRING_CODES_PER_CLIENT_PER_HOUR: '2',
    })
    const [s] = unpaired(system, 1)
    const post = (session: Record<string, string>, phone: string) =>
      request(app).post(PATH).set(session).send({ phone })
    system.onRun = (_id, command) => {
      if (command.type === 'requestPairingCode' && _id === auth.id) throw new GatewayError('PAIRING_CODE_NOT_NEEDED')
      return { code: 'ABCD-EFGH', expiresAt: Date.parse('2030-01-01T00:00:00Z') }
    }
    for (let i = 0; i < 3; i++) expect((await post(auth, '15550000001')).status).toBe(409) // paired: no budget spent
    expect((await post(s!, '123')).status).toBe(400)
    expect((await post(s!, '15550000001')).status).toBe(200) // the number's one code
    expect((await post(s!, '15550000001')).status).toBe(429) // the number's refusal: the client keeps its second
    expect((await post(s!, '15550000002')).status).toBe(200)
    expectError(
      await post(s!, '15550000003'),
      429,
      expect.stringMatching(/^too many pairing code requests from this client/),
    )
  })
})
