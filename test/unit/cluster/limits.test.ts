/**
 * The pairing codes' budgets in cluster mode (src/cluster/limits.ts) on a redis-server of the file's own: two nodes'
 * budgets over the same Redis share a number's few codes an hour and a client's, take both or neither, and Redis holds
 * the numbers and addresses only as keyed hashes.
 */
import { expect, it } from 'vitest'
import { PeerAuth } from '../../../src/cluster/peer-auth.js'
import { clusterPairingCodeBudget } from '../../../src/cluster/limits.js'
import { connectRedis } from '../../../src/cluster/store/connection.js'
import { describeWithRedis } from '../../support/redis-server.js'
import { redisHarness } from '../../support/redis-harness.js'

const SECRET = 'a cluster secret of the nodes, thirty-two characters or more'
const QUOTAS = { PAIRING_CODES_PER_PHONE_PER_HOUR: 3, PAIRING_CODES_PER_CLIENT_PER_HOUR: 5 }

describeWithRedis('pairing code budgets shared by the nodes', () => {
  const redis = redisHarness()
  /** Node `name`'s budget, on a connection of its own, with the tags every node derives from CLUSTER_SECRET. */
  async function node(name: string) {
    const conn = await connectRedis(redis.url)
    const auth = new PeerAuth(SECRET, name)
    const budget = clusterPairingCodeBudget(
      async () => conn,
      { client: key => auth.clientTag(key), phone: phone => auth.phoneTag(phone) },
      QUOTAS,
    )
    return { budget, close: () => conn.close() }
  }

  it('gives a number its codes once across the nodes, a client its own, and keeps no number or address', async () => {
    const [one, two] = [await node('node-1'), await node('node-2')]
    try {
      const asks = [] as unknown[]
      for (let i = 0; i < 6; i++) asks.push(await (i % 2 ? two : one).budget.take(`198.51.100.${i}`, '15550000009'))
      expect(asks.slice(0, 3)).toEqual([undefined, undefined, undefined])
      for (const refused of asks.slice(3)) {
        expect(refused).toMatchObject({ by: 'phone' })
        // 3 an hour: the next one 20 minutes after the first
        expect((refused as { waitMs: number }).waitMs).toBeGreaterThan(1_150_000)
        expect((refused as { waitMs: number }).waitMs).toBeLessThanOrEqual(1_200_000)
      }
      // one client over both nodes: 5 codes whatever the numbers; the number's refusal above cost it nothing
      const client = '203.0.113.7'
      const mine = [] as unknown[]
      for (let i = 0; i < 7; i++) mine.push(await (i % 2 ? two : one).budget.take(client, `1555000010${i}`))
      expect(mine.slice(0, 5)).toEqual(new Array(5).fill(undefined))
      expect(mine.slice(5)).toEqual([
        { by: 'client', waitMs: expect.any(Number) },
        { by: 'client', waitMs: expect.any(Number) },
      ])
      const keys = ((await redis.conn.command(['KEYS', '*'])) as Buffer[]).map(String)
      expect(keys.filter(k => k.startsWith('gw:pairing-phone:'))).toHaveLength(1 + 5)
      // the three clients the number refused spent nothing: no bucket of theirs was written
      expect(keys.filter(k => k.startsWith('gw:pairing-client:'))).toHaveLength(3 + 1)
      const dump = JSON.stringify(
        await Promise.all(keys.map(async k => [k, String(await redis.conn.command(['HGETALL', k]))])),
      )
      for (const secret of ['15550000009', '5550000009', '198.51.100', '203.0.113.7'])
        expect(dump).not.toContain(secret)
      // each bucket goes by itself within the hour
      const ttl = Number(await redis.conn.command(['PTTL', keys.find(k => k.startsWith('gw:pairing-phone:'))!]))
      expect(ttl).toBeGreaterThan(0)
      expect(ttl).toBeLessThanOrEqual(3_600_000)
    } finally {
      await Promise.all([one.close(), two.close()])
    }
  })

  it("names a number by a keyed hash of its own: not the client's, not another secret's", () => {
    const auth = new PeerAuth(SECRET, 'node-1')
    const other = new PeerAuth(`${SECRET}-other`, 'node-1')
    expect(auth.phoneTag('15550000009')).toBe(new PeerAuth(SECRET, 'node-2').phoneTag('15550000009'))
    expect(auth.phoneTag('15550000009')).not.toBe(auth.clientTag('15550000009'))
    expect(auth.phoneTag('15550000009')).not.toBe(other.phoneTag('15550000009'))
    expect(auth.phoneTag('15550000009')).not.toBe(auth.phoneTag('15550000008'))
  })

  it('turns a budget off at 0, and answers 503 when Redis cannot be reached', async () => {
    const conn = await connectRedis(redis.url)
    const auth = new PeerAuth(SECRET, 'node-1')
    const tags = { client: (key: string) => auth.clientTag(key), phone: (p: string) => auth.phoneTag(p) }
    const open = clusterPairingCodeBudget(async () => conn, tags, {
      PAIRING_CODES_PER_PHONE_PER_HOUR: 0,
      PAIRING_CODES_PER_CLIENT_PER_HOUR: 0,
    })
    for (let i = 0; i < 10; i++) expect(await open.take('198.51.100.1', '15550000009')).toBeUndefined()
    expect(((await redis.conn.command(['KEYS', 'gw:pairing-*'])) as Buffer[]).length).toBe(0)
    await conn.close()
    const down = clusterPairingCodeBudget(
      async () => {
        throw new Error('ECONNREFUSED')
      },
      tags,
      QUOTAS,
    )
    await expect(down.take('198.51.100.1', '15550000009')).rejects.toMatchObject({ code: 'OVERLOADED' })
  })
})
