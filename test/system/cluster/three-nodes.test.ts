/**
 * @module test/system/cluster/three-nodes
 * Three gateway processes in cluster mode on one Redis and one sandbox, 30 paired sessions, bursts of 300 sends
 * round-robin through the nodes: any node answers for any session (forwarded to its owner), a new session lands
 * on the least loaded node, SIGTERM hands every session over, a node joining takes its share, and after kill -9
 * the survivors take the dead node's sessions over once the leases expire; a node paused past its leases is fenced
 * and steps down; a Redis restart drops nothing and a 10 s Redis outage heals. Each scenario ends with the same
 * checks: every send answered 200 arrived exactly once, every other answer was a clear 5xx, the sandbox saw no
 * stanza on a superseded connection and no 440 (one per moved device at most, only when a node was paused).
 */
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { describeWithRedis } from '../../support/redis-server.js'
import { startCluster, type TestCluster } from '../../support/cluster.js'
import { waitFor } from '../../support/wait-for.js'

const SESSIONS = Number(process.env.CLUSTER_TEST_SESSIONS ?? 30)
const SENDS = Number(process.env.CLUSTER_TEST_SENDS ?? 300)

describeWithRedis('cluster mode: three nodes', () => {
  let cluster: TestCluster

  beforeAll(async () => {
    // a node frozen past its leases sits out 60 s: the test watches it open no socket for the 30 s after SIGCONT
    cluster = await startCluster(3, {
      CLUSTER_REJOIN_QUIET_MS: '60000',
      ...(process.env.CLUSTER_TEST_DEBUG ? { LOG_LEVEL: 'info' } : {}),
    })
    await cluster.addContacts(['15550100001', '15550100002', '15550100003', '15550100004', '15550100005'])
    await cluster.pairSessions(SESSIONS, 15550200000)
  }, 240_000)

  afterAll(async () => {
    await cluster?.close()
  })

  afterEach(ctx => {
    if (ctx.task.result?.state !== 'fail' || !process.env.CLUSTER_TEST_DEBUG) return
    const interesting = /cluster|lease|replaced|link closed|link open|superseded|settle/i
    for (const { gw, index } of cluster.live()) {
      const lines = gw.proc
        .output()
        .split('\n')
        .filter(l => interesting.test(l))
      console.log(`--- node-${index + 1}\n${lines.slice(-80).join('\n')}`)
    }
  })

  /** The sessions whose lease `node` holds. */
  const ownedBy = async (node: string) => {
    const mine = []
    for (const s of cluster.sessions) if ((await cluster.ownerOf(s)) === node) mine.push(s)
    return mine
  }

  it('places new sessions on the least loaded node', async () => {
    const owners = await cluster.owners()
    expect([...owners.keys()].sort()).toEqual(['node-1', 'node-2', 'node-3'])
    for (const n of owners.values()) expect(Math.abs(n - SESSIONS / 3)).toBeLessThanOrEqual(2)
  })

  it('answers for any session through any node: every request reaches the right session', async () => {
    const before = await cluster.ledger()
    for (const s of cluster.sessions.slice(0, 6)) {
      const answers = await Promise.all(cluster.live().map(({ gw }) => gw.session(s)))
      for (const v of answers) {
        expect(v.status).toBe(200)
        expect(v.body).toMatchObject({ id: s.id, isConnected: true })
        expect(v.body.generatedId).toMatch(new RegExp(`^${s.phone}:`))
      }
    }
    const wrong = await cluster.nodes[0]!.session({
      ...cluster.sessions[1]!,
      sessionId: cluster.sessions[2]!.sessionId,
    })
    expect(wrong).toEqual({ status: 404, body: { statusCode: 404, message: 'session not found' } })
    const outcomes = await cluster.burst(SENDS, { label: 'forwarding' })
    expect(outcomes.filter(o => o.status === 200)).toHaveLength(SENDS)
    await cluster.expectDeliveredExactlyOnce(outcomes)
    expect(await cluster.metric(0, 'gateway_cluster_forwarded_requests_total', { result: 'ok' })).toBeGreaterThan(0)
    await cluster.expectCleanMoves(before)
  }, 120_000)

  it('SIGTERM hands every session over with no 500, no 440 and no lost send', async () => {
    const before = await cluster.ledger()
    const burst = cluster.burst(SENDS, { label: 'sigterm', via: () => [0, 1] })
    await new Promise(r => setTimeout(r, 500))
    expect(await cluster.stopNode(2, 'SIGTERM')).toBe(0)
    const outcomes = await burst
    expect(outcomes.filter(o => o.status === 500)).toEqual([])
    await cluster.allConnected(0)
    const owners = await cluster.owners()
    expect(owners.get('node-3')).toBeUndefined()
    expect((owners.get('node-1') ?? 0) + (owners.get('node-2') ?? 0)).toBe(SESSIONS)
    await cluster.expectDeliveredExactlyOnce(outcomes)
    await cluster.expectCleanMoves(before)
  }, 120_000)

  it('a node joining takes its share, gradually, while sends go on', async () => {
    const before = await cluster.ledger()
    await cluster.startNode(2)
    const burst = cluster.burst(SENDS, { label: 'join', concurrency: 4 })
    const spread = await waitFor(
      'node-3 holding its share',
      async () => {
        const owners = await cluster.owners()
        return (owners.get('node-3') ?? 0) >= SESSIONS / 3 - 3 ? owners : undefined
      },
      60_000,
      250,
    )
    for (const node of ['node-1', 'node-2', 'node-3']) expect(spread.get(node)).toBeGreaterThanOrEqual(SESSIONS / 3 - 3)
    const outcomes = await burst
    expect(outcomes.filter(o => o.status === 500)).toEqual([])
    await cluster.allConnected(2)
    await cluster.expectDeliveredExactlyOnce(outcomes)
    await cluster.expectCleanMoves(before)
  }, 120_000)

  it('a Redis restart of under 2 s drops no session', async () => {
    await cluster.settled()
    await cluster.allConnected(2)
    const before = await cluster.ledger()
    await cluster.redis.down()
    await cluster.redisUp()
    await new Promise(r => setTimeout(r, 3_000))
    const after = await cluster.ledger()
    for (const s of cluster.sessions) expect(after.get(s.phone)!.logins, s.phone).toBe(before.get(s.phone)!.logins)
    const outcomes = await cluster.burst(SENDS, { label: 'redis-restart' })
    expect(outcomes.filter(o => o.status !== 200)).toEqual([])
    await cluster.expectDeliveredExactlyOnce(outcomes)
    await cluster.expectCleanMoves(before)
  }, 120_000)

  it('Redis down for 10 s: sessions stop cleanly, and every one is back within 15 s of its return', async () => {
    const before = await cluster.ledger()
    await cluster.redis.down()
    await new Promise(r => setTimeout(r, 10_000))
    await cluster.redisUp()
    await cluster.allConnected(2, 15_000)
    // Connected is not yet settled: under load (the full suite), a few sessions were still between two nodes after
    // this, and a session between nodes answers 503 `session is moving` (documented, with Retry-After) for the
    // burst below. It waits for the owners to stay put for 2 s; a session stuck between nodes would still fail it.
    await cluster.settled()
    const outcomes = await cluster.burst(SENDS, { label: 'redis-down' })
    expect(outcomes.filter(o => o.status !== 200)).toEqual([])
    await cluster.expectDeliveredExactlyOnce(outcomes)
    await cluster.expectCleanMoves(before)
  }, 120_000)
  it('SIGSTOP past the lease, then SIGCONT: it steps down, opens no socket for 30 s, and breaks nothing', async () => {
    await cluster.settled()
    const paused = cluster.nodes[0]!
    const moved = await ownedBy('node-1')
    expect(moved.length).toBeGreaterThan(0)
    const before = await cluster.ledger()
    const acked = await cluster.metric(0, 'gateway_platform_acks_total')
    const burst = cluster.burst(SENDS, { label: 'sigstop', via: () => [1, 2], concurrency: 6 })
    // paused mid-burst, once its sends are flowing (on a loaded machine a fixed delay could pause it before the
    // first forwarded send arrived)
    await waitFor(
      'node-1 sending',
      async () => (await cluster.metric(0, 'gateway_platform_acks_total')) >= acked + 3 || undefined,
      20_000,
      20,
    )
    paused.proc.child.kill('SIGSTOP')
    // the others take its sessions over once the 3 s leases expire
    await waitFor(
      "the paused node's sessions running elsewhere",
      async () => {
        for (const s of moved) {
          const owner = await cluster.ownerOf(s)
          if (owner === undefined || owner === 'node-1') return undefined
        }
        return true
      },
      30_000,
      200,
    )
    await cluster.allConnected(1)
    paused.proc.child.kill('SIGCONT')
    const wokeAt = Date.now()
    const woke = await cluster.ledger()
    const outcomes = await burst
    // it runs none of its old sessions any more. Whether one of its sends was between its encryption and its
    // writes at the instant of SIGSTOP is chance (most often they are not, and then nothing is late): that a late
    // write is refused is shown where it is certain, frozen-node.test.ts (the QR timer that fires on waking), and
    // here by what follows: nothing it wrote after waking breaks the moved sessions' next sends at the phone
    await waitFor('node-1 stepped down', async () => (await ownedBy('node-1')).length === 0 || undefined, 10_000)
    // for 30 s after SIGCONT it opens no socket: no moved device logs in again, none is kicked again
    await new Promise(r => setTimeout(r, Math.max(0, wokeAt + 30_000 - Date.now())))
    const later = await cluster.ledger()
    for (const s of moved) {
      expect(later.get(s.phone)!.logins, `logins of ${s.phone} after SIGCONT`).toBe(woke.get(s.phone)!.logins)
      expect(later.get(s.phone)!.replacedKicks).toBe(woke.get(s.phone)!.replacedKicks)
    }
    expect(await ownedBy('node-1')).toEqual([])
    // the next sends of the moved sessions decrypt at the phone
    const after = await cluster.burst(60, { label: 'after-sigstop', via: () => [1, 2] })
    expect(after.filter(o => o.status !== 200)).toEqual([])
    await cluster.expectDeliveredExactlyOnce([...outcomes, ...after])
    await cluster.expectCleanMoves(before, 1)
  }, 180_000)

  it('kill -9 of a node mid-burst: its sessions connect again elsewhere within 13 s', async () => {
    const victims = await ownedBy('node-2')
    expect(victims.length).toBeGreaterThan(0)
    const before = await cluster.ledger()
    const burst = cluster.burst(SENDS, { label: 'kill' })
    await new Promise(r => setTimeout(r, 500))
    await cluster.stopNode(1, 'SIGKILL')
    await waitFor(
      "the dead node's sessions connected elsewhere",
      async () => {
        for (const s of victims) {
          const owner = await cluster.ownerOf(s)
          if (owner === undefined || owner === 'node-2') return undefined
          const r = await cluster.nodes[2]!.session(s)
          if (r.status !== 200 || !r.body.isConnected) return undefined
        }
        return true
      },
      13_000,
      200,
    )
    const outcomes = await burst
    await cluster.expectDeliveredExactlyOnce(outcomes)
    await cluster.expectCleanMoves(before)
  }, 120_000)
})
