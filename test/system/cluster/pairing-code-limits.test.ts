/**
 * @module test/system/cluster/pairing-code-limits
 * Pairing codes per phone number and per client across two nodes on one Redis, from the attacker's side: codes for a
 * stranger's number asked through both nodes, for sessions each node runs, reach the platform (the sandbox counts
 * them) PAIRING_CODES_PER_PHONE_PER_HOUR times in all, not that many per node; a client spreading codes over numbers
 * and nodes gets PAIRING_CODES_PER_CLIENT_PER_HOUR in all; Redis holds neither the number nor the address.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { describeWithRedis } from '../../support/redis-server.js'
import { startCluster, type TestCluster } from '../../support/cluster.js'
import { headersOf, type Reply, sandboxCall, type Session } from '../../support/system/harness.js'
import { waitFor } from '../../support/wait-for.js'

const STRANGER = '15550400071'

describeWithRedis('pairing codes per number and per client, across the nodes', () => {
  let cluster: TestCluster
  /** Two unpaired sessions node-1 runs and two node-2 runs, each showing a QR. */
  const sessions: Session[] = []

  beforeAll(async () => {
    cluster = await startCluster(2, {
      TRUST_PROXY: 'loopback',
      PAIRING_CODE_INTERVAL_MS: '0',
      PAIRING_CODES_PER_CLIENT_PER_HOUR: '6',
    })
    const byOwner = new Map<string, Session[]>()
    // a new session goes to the node with fewer, as the heartbeats tell it: a few are enough for two on each
    for (let made = 0; (byOwner.get('node-1')?.length ?? 0) < 2 || (byOwner.get('node-2')?.length ?? 0) < 2; made++) {
      expect(made).toBeLessThan(10)
      const s = await cluster.nodes[made % 2]!.createSession()
      const owner = await waitFor('the session to have an owner', () => cluster.ownerOf(s))
      if ((byOwner.get(owner)?.length ?? 0) < 2) byOwner.set(owner, [...(byOwner.get(owner) ?? []), s])
    }
    sessions.push(...byOwner.get('node-1')!, ...byOwner.get('node-2')!)
    for (const s of sessions)
      await waitFor('a QR', async () => (await cluster.nodes[0]!.session(s)).body.qrcode || undefined, 60_000)
  }, 180_000)

  afterAll(async () => {
    await cluster?.close()
  })

  /** A code asked through node `via` for session `s`, on behalf of `client`. */
  const requestCode = (via: number, s: Session, client: string, phone: string): Promise<Reply> =>
    cluster.nodes[via]!.raw(
      'POST',
      '/session/pairing-code',
      { ...headersOf(s), 'x-forwarded-for': client },
      JSON.stringify({ phone }),
    )
  const hellos = async (): Promise<number> =>
    (await sandboxCall(cluster.sandbox, 'GET', '/stats')).body.linkCodeHellos ?? 0

  it("20 codes for a stranger's number through both nodes: 3 reach the phone in all", async () => {
    const before = await hellos()
    const statuses: number[] = []
    // session after session (two on each node), node after node: each node runs some, forwards the others
    for (let i = 0; i < 20; i++)
      statuses.push((await requestCode(i % 2, sessions[(i >> 1) % 4]!, '198.51.100.10', STRANGER)).status)
    expect(statuses.filter(s => s === 200)).toHaveLength(3)
    expect(statuses.filter(s => s === 429)).toHaveLength(17)
    expect((await hellos()) - before).toBe(3)
    const refused = await requestCode(1, sessions[3]!, '198.51.100.10', STRANGER)
    expect(refused.body).toEqual({
      statusCode: 429,
      message: expect.stringMatching(/^too many pairing codes for this phone number, retry in \d+ s$/),
    })
    const keys = ((await cluster.raw.command(['KEYS', 'gw:pairing-*'])) as Buffer[]).map(String)
    expect(keys.length).toBeGreaterThan(0)
    expect(keys.join(' ')).not.toMatch(/15550400071|5550400071|198\.51\.100/)
  }, 120_000)

  it('a client spreading codes over numbers and nodes gets PAIRING_CODES_PER_CLIENT_PER_HOUR in all', async () => {
    const before = await hellos()
    const statuses: number[] = []
    for (let i = 0; i < 12; i++)
      statuses.push(
        (await requestCode(i % 2, sessions[(i >> 1) % 4]!, '198.51.100.20', `1555040110${i % 10}${i}`)).status,
      )
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429, 429, 429, 429, 429, 429])
    expect((await hellos()) - before).toBe(6)
    const neighbour = await requestCode(1, sessions[0]!, '203.0.113.30', '15550401201')
    expect(neighbour.status).toBe(200)
  }, 120_000)
})
