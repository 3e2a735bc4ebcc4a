/**
 * @module test/unit/cluster/routing
 * The nodes' heartbeats and the request routes, on a real redis-server. Nodes see each other with their address
 * and load; a node that stops beating drops out once its heartbeat expires; a node cut off past its leases comes
 * back quiet (no sessions placed on it) for the quiet period; one leaving says so at once. A request for a
 * session goes where its lease is held by a live node, waits (503 "moving") while nobody or a silent node holds
 * it, and stays here for an id the registry does not know. New sessions go to the least loaded node, and the
 * sessions placed between two beats spread out. Redis is not trusted with who the nodes are: a record written by
 * anyone without CLUSTER_SECRET, changed, renamed or replayed after its time is no node, and a lease naming such
 * a node sends nothing anywhere.
 */
import { afterEach, expect, it } from 'vitest'
import { NODES_KEY, NodeDirectory } from '../../../src/cluster/node-directory.js'
import { ClusterRoutes } from '../../../src/cluster/routing.js'
import { PeerAuth } from '../../../src/cluster/peer-auth.js'
import { acquireLease } from '../../../src/cluster/store/lease.js'
import { homeOf } from '../../../src/cluster/placement.js'
import { REGISTRY_KEY } from '../../../src/cluster/store/keys.js'
import { redisHarness } from '../../support/redis-harness.js'
import { describeWithRedis } from '../../support/redis-server.js'

describeWithRedis('cluster nodes and routes', () => {
  const redis = redisHarness()

  let clock = 0
  let wallClock: number | undefined
  const SECRET = 'the-cluster-secret-of-this-test-0123456789'
  /** Redis as a node sees it: `redisDown.value = true` makes every command fail as if it were unreachable. */
  const redisDown = { value: false }
  const directory = (node: string, sessions = () => 0, heartbeatMs = 50, secret = SECRET) =>
    new NodeDirectory(
      async () => {
        if (redisDown.value) throw new Error('Redis unreachable')
        return redis.conn
      },
      {
        node,
        url: `http://${node}:3000`,
        heartbeatMs,
        quietAfterGapMs: 1_000,
        rejoinQuietMs: 5_000,
        sessions,
        auth: new PeerAuth(secret, node),
        now: () => clock,
        wallNow: () => wallClock ?? Date.now(),
      },
    )
  /** The nodes `d` sees alive (placing sessions on them or not), by name. */
  const liveNodes = (d: NodeDirectory) =>
    d
      .live()
      .map(n => n.node)
      .sort()
  afterEach(() => {
    redisDown.value = false
    wallClock = undefined
  })

  it('nodes see each other with their address and load, and a silent one drops out', async () => {
    const a = directory('node-a', () => 3)
    const b = directory('node-b', () => 7)
    await a.beat()
    const seen = await b.beat()
    expect(seen.map(n => [n.node, n.url, n.sessions, n.accepting]).sort()).toEqual([
      ['node-a', 'http://node-a:3000', 3, true],
      ['node-b', 'http://node-b:3000', 7, true],
    ])
    await new Promise(r => setTimeout(r, 3 * 50 + 50)) // node-a's heartbeat (3 × 50 ms) expires
    expect((await b.beat()).map(n => n.node)).toEqual(['node-b'])
    expect((await redis.conn.command(['SMEMBERS', NODES_KEY])) as Buffer[]).toHaveLength(1)
  })

  it('comes back quiet after a gap past its leases, and takes sessions again after the quiet period', async () => {
    const a = directory('node-a', () => 0, 10_000)
    const b = directory('node-b', () => 0, 10_000)
    clock = 0
    await a.beat()
    await b.beat()
    expect(b.placing().sort()).toEqual(['node-a', 'node-b'])
    // node-b beats on; node-a misses every beat until 2 s (quietAfterGapMs 1 s): it was paused past its leases
    const bBeatsUntil = async (until: number) => {
      for (; clock < until; clock += 500) await b.beat()
      clock = until
    }
    await bBeatsUntil(2_000)
    await a.beat()
    expect(a.accepting).toBe(false)
    await b.beat()
    expect(b.placing()).toEqual(['node-b'])
    expect(liveNodes(b)).toEqual(['node-a', 'node-b']) // alive: it still forwards
    for (; clock < 7_001; clock += 500) {
      await a.beat()
      await b.beat()
    }
    await a.beat()
    await b.beat()
    expect(a.accepting).toBe(true)
    expect(b.placing().sort()).toEqual(['node-a', 'node-b'])
  })

  it('does not go quiet when its beats failed while it ran (Redis unreachable for every node)', async () => {
    const flaky = directory('node-a', () => 0, 500)
    clock = 0
    await flaky.beat()
    redisDown.value = true
    for (clock = 500; clock <= 10_000; clock += 500) await expect(flaky.beat()).rejects.toThrow('Redis unreachable')
    redisDown.value = false
    await flaky.beat()
    expect(flaky.accepting).toBe(true)
  })

  it('calls what it knows of the nodes whole only after two beats in a row, at start and after Redis was unreachable', async () => {
    const d = directory('node-a', () => 0, 500)
    clock = 0
    await d.beat()
    expect(d.settled).toBe(false) // the others may not have beaten since it started
    clock = 500
    await d.beat()
    expect(d.settled).toBe(true)
    redisDown.value = true
    clock = 1_000
    await expect(d.beat()).rejects.toThrow()
    redisDown.value = false
    clock = 1_500
    await d.beat()
    expect(d.settled).toBe(false) // every heartbeat expired meanwhile: it would see itself alone
    clock = 2_000
    await d.beat()
    expect(d.settled).toBe(true)
  })

  it('a node leaving takes no more sessions, and is gone once removed', async () => {
    const a = directory('node-a', () => 0, 10_000)
    const b = directory('node-b', () => 0, 10_000)
    await a.beat()
    await a.leave()
    await b.beat()
    expect(b.placing()).toEqual(['node-b'])
    expect(liveNodes(b)).toEqual(['node-a', 'node-b'])
    await a.remove()
    expect((await b.beat()).map(n => n.node)).toEqual(['node-b'])
  })

  it('routes a request to the live node holding the lease, or to the node a free session belongs on; waits for a silent holder; keeps unknown ids here', async () => {
    const a = directory('node-a', () => 0, 10_000)
    const b = directory('node-b', () => 0, 10_000)
    await b.beat()
    await a.beat()
    const local = new Set<string>(['here-1'])
    const routes = new ClusterRoutes(
      async () => redis.conn,
      a,
      id => local.has(id),
      () => local.size,
    )
    // free sessions (new, or between nodes): one that belongs on node-b, one that belongs here
    const homed = (node: string) => {
      for (let i = 0; ; i++) if (homeOf(`s-free-${i}`, ['node-a', 'node-b']) === node) return `s-free-${i}`
    }
    const freeThere = homed('node-b')
    const freeHere = homed('node-a')
    await redis.conn.command(['HSET', REGISTRY_KEY, 's-b', 'row', freeThere, 'row', freeHere, 'row', 's-dead', 'row'])
    await acquireLease(redis.conn, 's-b', 'node-b', 60_000)
    await acquireLease(redis.conn, 's-dead', 'node-c', 60_000) // node-c never beats: dead or paused
    const toB = { to: 'node', peer: { node: 'node-b', url: 'http://node-b:3000' } }
    expect(await routes.locate('s-b')).toMatchObject(toB)
    expect(await routes.locate(freeThere)).toMatchObject(toB)
    expect(await routes.locate(freeHere)).toEqual({ to: 'moving' })
    expect(await routes.locate('s-dead')).toEqual({ to: 'moving' })
    expect(await routes.locate('never-registered')).toEqual({ to: 'here' })
    expect(routes.hosts('here-1')).toBe(true)
  })

  it('places new sessions on the least loaded node, spreading those placed between two beats', async () => {
    const a = directory('node-a', () => 4, 10_000)
    const b = directory('node-b', () => 2, 10_000)
    await b.beat()
    await a.beat()
    const routes = new ClusterRoutes(
      async () => redis.conn,
      a,
      () => false,
      () => 4,
    )
    const targets = Array.from({ length: 4 }, () => routes.placeNew())
    // node-b (2) takes two, then both hold 4 and the tie goes to the lower name: node-a, then node-b
    expect(targets).toEqual(['node-b', 'node-b', 'node-a', 'node-b'])
  })

  /** Writes a heartbeat record as someone with write access to Redis would, and lists it as a node. */
  const plant = async (name: string, record: unknown) => {
    await redis.conn.command(['SET', `gw:node:${name}`, JSON.stringify(record), 'PX', '60000'])
    await redis.conn.command(['SADD', NODES_KEY, name])
  }
  const liveNames = (d: NodeDirectory) =>
    d
      .live()
      .map(n => n.node)
      .sort()

  it('ignores a node record nobody with the secret signed, and drops its name', async () => {
    const b = directory('node-b', () => 0, 10_000)
    const far = Date.now() + 3_600_000
    await plant('evil', { node: 'evil', url: 'http://127.0.0.1:9', sessions: 0, accepting: true, expiresAt: far })
    await plant('evil-2', {
      node: 'evil-2',
      url: 'http://127.0.0.1:9',
      sessions: 0,
      accepting: true,
      expiresAt: far,
      mac: 'A'.repeat(43),
    })
    // signed, but with another secret
    const other = directory('node-x', () => 0, 10_000, 'another-secret-that-is-long-enough-0123456')
    await other.beat()
    await b.beat()
    expect(liveNames(b)).toEqual(['node-b'])
    const members = ((await redis.conn.command(['SMEMBERS', NODES_KEY])) as Buffer[]).map(String)
    expect(members.sort()).toEqual(['node-b'])
  })

  it('ignores a genuine record changed, renamed, or replayed after its time', async () => {
    const a = directory('node-a', () => 0, 10_000)
    const b = directory('node-b', () => 0, 10_000)
    await a.beat()
    const genuine = JSON.parse(String(await redis.conn.command(['GET', 'gw:node:node-a'])))
    await b.beat()
    expect(liveNames(b)).toEqual(['node-a', 'node-b'])
    // the address changed to the attacker's: the MAC no longer holds
    await plant('node-a', { ...genuine, url: 'http://127.0.0.1:9' })
    await b.beat()
    expect(liveNames(b)).toEqual(['node-b'])
    // the same record under another name
    await plant('node-z', genuine)
    await b.beat()
    expect(liveNames(b)).toEqual(['node-b'])
    // replayed as it was, once its time is over (beyond the clocks' allowed skew)
    await plant('node-a', genuine)
    wallClock = genuine.expiresAt + 15_001
    await b.beat()
    expect(liveNames(b)).toEqual(['node-b'])
    await plant('node-a', genuine)
    wallClock = genuine.expiresAt - 1
    await b.beat()
    expect(liveNames(b)).toEqual(['node-a', 'node-b'])
  })

  it('forwards nothing to a node named only by a planted record and lease', async () => {
    const a = directory('node-a', () => 0, 10_000)
    await a.beat()
    const routes = new ClusterRoutes(
      async () => redis.conn,
      a,
      () => false,
      () => 0,
    )
    await plant('evil', { node: 'evil', url: 'http://127.0.0.1:9', sessions: 0, accepting: true, expiresAt: 9e15 })
    await redis.conn.command(['HSET', REGISTRY_KEY, 's-1', 'row'])
    await redis.conn.command(['SET', 'gw:{s-1}:lease', 'evil|7', 'PX', '60000'])
    await a.beat()
    expect(await routes.locate('s-1')).toEqual({ to: 'moving' })
    expect(routes.peer('evil')).toBeUndefined()
  })

  it('takes a session Redis cannot place for a moment (a restart) as between two nodes: its request waits', async () => {
    const a = directory('node-a', () => 0, 10_000)
    await a.beat()
    const offline = {
      ...redis.conn,
      command: async () => {
        throw new Error('The client is offline')
      },
    }
    const routes = new ClusterRoutes(
      async () => offline,
      a,
      () => false,
      () => 0,
    )
    // nothing ran: the front waits (CLUSTER_MOVE_WAIT_MS) and asks again, then answers 503 with Retry-After
    expect(await routes.locate('s-1')).toEqual({ to: 'moving' })
  })
})
