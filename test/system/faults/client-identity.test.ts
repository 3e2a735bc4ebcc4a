/**
 * Who "one client" is for the per-client limits (docs/operating.md), on a real gateway behind a pretend reverse proxy
 * on loopback: with TRUST_PROXY naming the proxy, two clients forwarded by it get separate POST /session budgets;
 * without it, every client shares the proxy's one budget. IPv6 clients are counted by their /64.
 */
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchGateway, startWorld, type Gateway } from '../../support/system/harness.js'

const statusFor = async (gw: Gateway, client: string): Promise<number> =>
  (await gw.api.POST('/session', { headers: { 'x-forwarded-for': client } })).response.status

describe('client identity behind a reverse proxy', () => {
  let world: Awaited<ReturnType<typeof startWorld>>
  const gateways: Gateway[] = []
  const launch = async (env: Record<string, string>) => {
    const gw = await launchGateway(world.sandbox.url, path.join(world.dataDir, String(gateways.length)), {
      SESSION_CREATE_PER_MINUTE: '2',
      UNPAIRED_PER_CLIENT: '0',
      ...env,
    })
    gateways.push(gw)
    return gw
  }

  beforeAll(async () => {
    world = await startWorld()
  }, 60_000)
  afterAll(async () => {
    await Promise.all(gateways.map(gw => gw.proc.stop()))
    await world?.cleanup()
  })

  it('with TRUST_PROXY, each forwarded client has its own budget; an IPv6 client is its /64', async () => {
    const gw = await launch({ TRUST_PROXY: 'loopback' })
    expect([
      await statusFor(gw, '203.0.113.1'),
      await statusFor(gw, '203.0.113.1'),
      await statusFor(gw, '203.0.113.1'),
    ]).toEqual([200, 200, 429])
    expect(await statusFor(gw, '203.0.113.2')).toBe(200)
    // Two hosts of one /64 are one client; the next /64 is another.
    expect([
      await statusFor(gw, '2001:db8:1:2::a'),
      await statusFor(gw, '2001:db8:1:2:ffff::b'),
      await statusFor(gw, '2001:db8:1:2::c'),
    ]).toEqual([200, 200, 429])
    expect(await statusFor(gw, '2001:db8:1:3::a')).toBe(200)
  }, 60_000)

  it("without TRUST_PROXY, the forwarded header is ignored: all clients share the proxy's budget", async () => {
    const gw = await launch({})
    expect([
      await statusFor(gw, '203.0.113.1'),
      await statusFor(gw, '203.0.113.2'),
      await statusFor(gw, '203.0.113.3'),
    ]).toEqual([200, 200, 429])
  }, 60_000)
})
