/**
 * Pairing codes per phone number and per client, from the attacker's side, on the real gateway and the sandbox (which
 * counts the pairing-code requests that reach the platform, each one a notification on that phone): a client holding
 * several unpaired sessions asks 20 codes for a stranger's number and gets PAIRING_CODES_PER_PHONE_PER_HOUR of them;
 * a client spreading codes over many numbers gets PAIRING_CODES_PER_CLIENT_PER_HOUR; its neighbour still gets its
 * own code. The per-session interval is off here, so that the limits seen are these two.
 */
import { describe, expect, it } from 'vitest'
import { headersOf, type Reply, sandboxCall, type Session } from '../../support/system/harness.js'
import { gatewayWorld } from '../../support/system/paired-gateway.js'
import { waitFor } from '../../support/wait-for.js'

const STRANGER = '15550000071'
const CODE = /^[1-9A-HJ-NP-TV-Z]{4}-[1-9A-HJ-NP-TV-Z]{4}$/

describe('pairing codes per number and per client', () => {
  const world = gatewayWorld({
    env: { TRUST_PROXY: 'loopback', PAIRING_CODE_INTERVAL_MS: '0', PAIRING_CODES_PER_CLIENT_PER_HOUR: '6' },
  })

  /** Codes asked through session `s` on behalf of `client` (the gateway believes loopback's X-Forwarded-For). */
  const requestCode = (s: Session, client: string, phone: string): Promise<Reply> =>
    world.gw.raw(
      'POST',
      '/session/pairing-code',
      { ...headersOf(s), 'x-forwarded-for': client },
      JSON.stringify({ phone }),
    )
  const hellos = async (): Promise<number> =>
    (await sandboxCall(world.sandbox.url, 'GET', '/stats')).body.linkCodeHellos ?? 0
  /** `count` new sessions, once each shows its first QR (registered with the platform: a code may be asked). */
  async function awaitingPairing(count: number): Promise<Session[]> {
    const sessions = await Promise.all(Array.from({ length: count }, () => world.gw.createSession()))
    for (const s of sessions)
      await waitFor('a QR', async () => (await world.gw.session(s)).body.qrcode || undefined, 60_000)
    return sessions
  }

  it("20 codes for a stranger's number from several sessions: 3 reach the phone, the rest are refused", async () => {
    const sessions = await awaitingPairing(4)
    const before = await hellos()
    const answers: Reply[] = []
    for (let i = 0; i < 20; i++) answers.push(await requestCode(sessions[i % 4]!, '198.51.100.10', STRANGER))
    expect(answers.map(a => a.status)).toEqual([200, 200, 200, ...new Array(17).fill(429)])
    for (const granted of answers.slice(0, 3)) expect(granted.body.code).toMatch(CODE)
    for (const refused of answers.slice(3)) {
      expect(refused.body).toEqual({
        statusCode: 429,
        message: expect.stringMatching(/^too many pairing codes for this phone number, retry in \d+ s$/),
      })
      // three an hour: the next one 20 minutes after the first
      const wait = Number(/retry in (\d+) s/.exec(refused.body.message)![1])
      expect(wait).toBeGreaterThan(1_100)
      expect(wait).toBeLessThanOrEqual(1_200)
    }
    // the platform, and so the stranger's phone, saw three requests
    expect((await hellos()) - before).toBe(3)
    // another number, through the same sessions, still gets its code
    expect((await requestCode(sessions[0]!, '198.51.100.10', '15550000072')).status).toBe(200)
  }, 120_000)

  it('a client spreading codes over many numbers gets PAIRING_CODES_PER_CLIENT_PER_HOUR; its neighbour gets its own', async () => {
    const [mine, neighbours] = [await awaitingPairing(3), await awaitingPairing(1)]
    const before = await hellos()
    const statuses: number[] = []
    for (let i = 0; i < 10; i++)
      statuses.push((await requestCode(mine[i % 3]!, '198.51.100.20', `1555000110${i}`)).status)
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429, 429, 429, 429])
    const refused = await requestCode(mine[0]!, '198.51.100.20', '15550001200')
    expect(refused.body).toEqual({
      statusCode: 429,
      message: expect.stringMatching(/^too many pairing code requests from this client, retry in \d+ s$/),
    })
    expect((await hellos()) - before).toBe(6)
    const neighbour = await requestCode(neighbours[0]!, '203.0.113.30', '15550001201')
    expect(neighbour.status).toBe(200)
    expect(neighbour.body.code).toMatch(CODE)
  }, 120_000)
})
