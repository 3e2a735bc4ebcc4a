/**
 * Cluster mode's figures, on one machine: a redis-server, the sandbox (nice 19) and up to three gateway
 * nodes on loopback, with the production lease and heartbeat settings.
 * - Redis key write p50/p99 beside lmdb: one fenced `keys.set()` of a Signal-session-sized record (~1.5 KB),
 *   sealed with DATA_KEY on both engines;
 * - the latency a forwarded request adds: GET /session of one session, one request at a time, through its own
 *   node and through another node (p50, p99);
 * - requests/s (GET /session) and sends/s (POST /message, limits off) through 1, 2 and 3 nodes: one load process
 *   per node, each rotating over every session (so through n nodes, (n-1)/n of the requests are forwarded);
 * - take-over after kill -9: the time from the kill until each of the dead node's sessions is connected on a
 *   survivor (p50, p99 and the last), with the production lease TTL (15 s).
 * All processes share this machine's cores: throughput "through 3 nodes" measures the forwarding cost, not the
 * capacity of three machines.
 *
 *   npm run bench:cluster   BENCH_CLUSTER_SESSIONS (60), BENCH_CLUSTER_LOAD_S (10), BENCH_CLUSTER_KEY_OPS (2000)
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { startGateway, startSandbox, type GatewayProcess } from '../test/support/processes.js'
import { startRedisServer } from '../test/support/redis-server.js'
import { openLmdbStore } from '../src/storage/lmdb-store.js'
import { openRedisStore } from '../src/cluster/store/redis-store.js'
import { LeaseKeeper } from '../src/cluster/store/lease.js'
import { connectRedis, text } from '../src/cluster/store/connection.js'
import { sessionKeys } from '../src/cluster/store/keys.js'
import type { Store } from '../src/storage/types.js'
import { pairFleet, sessionHeaders, type FleetSession } from './lib/fleet.js'
import { runLoad, type LoadResult } from './lib/http-load.js'
import { BenchReport, percentile } from './lib/results.js'
import { setting } from './lib/settings.js'

const SESSIONS = setting('BENCH_CLUSTER_SESSIONS', 60)
const LOAD_S = setting('BENCH_CLUSTER_LOAD_S', 10)
const KEY_OPS = setting('BENCH_CLUSTER_KEY_OPS', 2000)
const CONTACT = '15550999999'

const report = new BenchReport('cluster', { sessions: SESSIONS, loadSeconds: LOAD_S, keyOps: KEY_OPS })
const dataKey = randomBytes(32).toString('base64')
const clusterSecret = randomBytes(32).toString('base64url')
const redis = await startRedisServer()
const dirs: string[] = []
const nodes: (GatewayProcess | undefined)[] = []
const sandbox = await startSandbox(undefined, undefined, { nice: 19 })

async function keyWrites(store: Store, id: string): Promise<number[]> {
  const keys = store.auth(id).keys
  const record = () => ({ chain: randomBytes(512), root: randomBytes(32), pending: randomBytes(480) })
  const times: number[] = []
  for (let i = 0; i < KEY_OPS + 200; i++) {
    const t = process.hrtime.bigint()
    await keys.set({ session: { [`1555${String(i % 500).padStart(7, '0')}.0`]: record() as unknown as Uint8Array } })
    if (i >= 200) times.push(Number(process.hrtime.bigint() - t) / 1e6) // the first 200 warm up
  }
  return times
}

async function startNode(i: number): Promise<GatewayProcess> {
  const dir = mkdtempSync(path.join(os.tmpdir(), `bench-cluster-${i}-`))
  dirs.push(dir)
  const gw = await startGateway({
    SANDBOX_URL: sandbox.url,
    DATA_DIR: dir,
    REDIS_URL: redis.url,
    DATA_KEY: dataKey,
    CLUSTER_SECRET: clusterSecret,
    NODE_ID: `node-${i + 1}`,
    SESSION_CREATE_PER_MINUTE: '0',
    UNPAIRED_PER_CLIENT: '0',
    SEND_RATE_PER_SECOND: '0',
    READ_RATE_PER_SECOND: '0',
  })
  nodes[i] = gw
  return gw
}

const sum = (rs: LoadResult[], f: (r: LoadResult) => number) => rs.reduce((a, r) => a + f(r), 0)

try {
  // 1. key writes, both engines sealed with DATA_KEY, the Redis one fenced under a lease
  const lmdbDir = mkdtempSync(path.join(os.tmpdir(), 'bench-cluster-lmdb-'))
  dirs.push(lmdbDir)
  const lmdb = openLmdbStore(lmdbDir, { dataKey })
  const lmdbTimes = await keyWrites(lmdb, 'bench')
  await lmdb.close()
  const keeper: LeaseKeeper = new LeaseKeeper(() => store.connection(), {
    node: 'bench',
    ttlMs: 60_000,
    renewMs: 20_000,
  })
  const store = openRedisStore(redis.url, { dataKey, fence: keeper })
  await keeper.acquire('bench')
  const redisTimes = await keyWrites(store, 'bench')
  keeper.stop()
  await store.close()
  for (const [engine, times] of [
    ['lmdb', lmdbTimes],
    ['Redis (fenced script)', redisTimes],
  ] as const) {
    report.add({ figure: `key write p50, ${engine}`, value: percentile(times, 0.5), unit: 'ms' })
    report.add({ figure: `key write p99, ${engine}`, value: percentile(times, 0.99), unit: 'ms' })
  }

  // 2. three nodes, SESSIONS paired through node 1 (placement spreads them)
  for (let i = 0; i < 3; i++) await startNode(i)
  await new Promise(r => setTimeout(r, 5_000)) // every node has seen the others' heartbeats
  const fleet: FleetSession[] = await pairFleet({
    gatewayUrl: nodes[0]!.url,
    sandboxUrl: sandbox.url,
    count: SESSIONS,
    concurrency: 5,
  })
  const raw = await connectRedis(redis.url)
  const ownerOf = async (s: FleetSession) => text(await raw.command(['GET', sessionKeys(s.id).lease]))?.split('|')[0]
  const owners = await Promise.all(fleet.map(ownerOf))
  report.note(
    'sessionsPerNode',
    Object.fromEntries(['node-1', 'node-2', 'node-3'].map(n => [n, owners.filter(o => o === n).length])),
  )

  // 3. the added latency of a forwarded request
  const probe = fleet[0]!
  const home = Number(owners[0]!.split('-')[1]) - 1
  const other = (home + 1) % 3
  const direct = await runLoad(
    {
      url: `${nodes[home]!.url}/session`,
      connections: 1,
      durationSeconds: LOAD_S,
      headerSets: [sessionHeaders(probe)],
    },
    { nice: 10 },
  )
  const forwarded = await runLoad(
    {
      url: `${nodes[other]!.url}/session`,
      connections: 1,
      durationSeconds: LOAD_S,
      headerSets: [sessionHeaders(probe)],
    },
    { nice: 10 },
  )
  report.add({ figure: 'GET /session p50, at its own node', value: direct.p50Ms, unit: 'ms' })
  report.add({ figure: 'GET /session p50, forwarded by another node', value: forwarded.p50Ms, unit: 'ms' })
  report.add({
    figure: 'latency a forwarded request adds, p50',
    value: forwarded.p50Ms - direct.p50Ms,
    unit: 'ms',
    goal: '≤ 1 ms',
    met: forwarded.p50Ms - direct.p50Ms <= 1,
    detail: `one connection, ${LOAD_S} s each; p99 ${direct.p99Ms} → ${forwarded.p99Ms} ms`,
  })

  // 4. requests/s and sends/s through 1, 2, 3 nodes (20 connections in all)
  const headers = fleet.map(sessionHeaders)
  for (const through of [1, 2, 3]) {
    const per = Math.round(20 / through)
    const reads = await Promise.all(
      nodes
        .slice(0, through)
        .map(n =>
          runLoad(
            { url: `${n!.url}/session`, connections: per, durationSeconds: LOAD_S, headerSets: headers },
            { nice: 10 },
          ),
        ),
    )
    report.add({
      figure: `GET /session 2xx/s through ${through} node(s)`,
      value: sum(reads, r => r.perSecond),
      unit: '/s',
      detail: `non-2xx ${sum(reads, r => r.non2xx)}`,
    })
    const sends = await Promise.all(
      nodes.slice(0, through).map(n =>
        runLoad(
          {
            url: `${n!.url}/message`,
            method: 'POST',
            connections: per,
            durationSeconds: LOAD_S,
            headerSets: headers,
            body: JSON.stringify({ phone: CONTACT, type: 'text', text: 'bench' }),
          },
          { nice: 10 },
        ),
      ),
    )
    report.add({
      figure: `POST /message 2xx/s through ${through} node(s)`,
      value: sum(sends, r => r.perSecond),
      unit: '/s',
      detail: `non-2xx ${sum(sends, r => r.non2xx)}`,
    })
  }

  // 5. take-over after kill -9 of node 2, production lease TTL
  const victims = fleet.filter((_, i) => owners[i] === 'node-2')
  const killedAt = Date.now()
  nodes[1]!.child.kill('SIGKILL')
  nodes[1] = undefined
  const back = new Map<string, number>()
  while (back.size < victims.length && Date.now() - killedAt < 120_000) {
    await Promise.all(
      victims
        .filter(s => !back.has(s.id))
        .map(async s => {
          const res = await fetch(`${nodes[0]!.url}/session`, { headers: sessionHeaders(s) }).catch(() => undefined)
          if (res?.ok && ((await res.json()) as { isConnected: boolean }).isConnected)
            back.set(s.id, Date.now() - killedAt)
        }),
    )
    await new Promise(r => setTimeout(r, 200))
  }
  const times = [...back.values()].map(ms => ms / 1000)
  const detail = `${victims.length} sessions of the killed node, ${back.size} back; CLUSTER_LEASE_TTL_MS 15000`
  report.add({ figure: 'take-over after kill -9, p50', value: percentile(times, 0.5), unit: 's', detail })
  report.add({
    figure: 'take-over after kill -9, p99',
    value: percentile(times, 0.99),
    unit: 's',
    goal: '≤ 45 s',
    met: back.size === victims.length && percentile(times, 0.99) <= 45,
    detail,
  })
  await raw.close()
} finally {
  await Promise.allSettled(nodes.map(n => n?.stop('SIGKILL')))
  await sandbox.stop()
  await redis.stop()
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
}
report.finish()
