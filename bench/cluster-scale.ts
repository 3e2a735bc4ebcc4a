/**
 * Many sessions over three nodes on one Redis, on one machine: a redis-server, the sandbox (nice 19) holding one
 * account per session, three gateway nodes on loopback with the production lease and heartbeat settings, and
 * SESSIONS paired sessions created through the three nodes in turn.
 * - placement: how many sessions each node runs (their leases in Redis), against an even third;
 * - every node answers for every session: GET /session of a sample through each node (forwarded to its owner),
 *   200 and connected;
 * - SIGTERM of the busiest node: its sessions handed to the two others, and the time from the signal until each
 *   is connected on a survivor (p50, p99, last), against the lease (CLUSTER_LEASE_TTL_MS, 15 s);
 * - memory per session: each node's RSS growth from a quarter of the fleet paired (its shard threads running) to
 *   all of it, over the sessions it gained; Redis' `used_memory` above its own before any session, over all;
 * - the idle cluster's CPU: the nodes' (keep-alives, lease renewals, the ownership pass over every lease) and Redis'.
 * All processes share this machine's two cores.
 *
 *   npm run bench:cluster-scale   BENCH_CLUSTER_SCALE_SESSIONS (150; --long 1,000), BENCH_CLUSTER_SCALE_SAMPLE (150 asked
 *                                 through each node), BENCH_CLUSTER_SCALE_PAIR_CONCURRENCY (9 pairings in flight)
 */
import type { GatewayProcess } from '../test/support/processes.js'
import { text } from '../src/cluster/store/connection.js'
import { startClusterWorld } from './lib/cluster-world.js'
import { pairFleet, sessionHeaders, type FleetSession } from './lib/fleet.js'
import { cpuSeconds, rssMb } from './lib/proc.js'
import { BenchReport, percentile } from './lib/results.js'
import { setting } from './lib/settings.js'

const SESSIONS = setting('BENCH_CLUSTER_SCALE_SESSIONS', 150, 1000)
const SAMPLE = Math.min(SESSIONS, setting('BENCH_CLUSTER_SCALE_SAMPLE', 150))
const PAIR_CONCURRENCY = setting('BENCH_CLUSTER_SCALE_PAIR_CONCURRENCY', 9)
const NODES = 3
const IDLE_MS = 20_000
const LEASE_MS = 15_000 // the production CLUSTER_LEASE_TTL_MS, which the nodes run with

const log = (msg: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${msg}`)
const sleep = (ms: number) => new Promise(r => setTimeout(r, ms))

async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length)
  let next = 0
  const lane = async () => {
    for (let i = next++; i < items.length; i = next++) out[i] = await fn(items[i]!)
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane))
  return out
}

const report = new BenchReport('cluster-scale', { sessions: SESSIONS, nodes: NODES, sample: SAMPLE })
const world = await startClusterWorld('cluster-scale')
const { raw, sandbox, nodes, startNode, ownerOf } = world

const redisUsedMemory = async (): Promise<number> =>
  Number(/used_memory:(\d+)/.exec(text(await raw.command(['INFO', 'memory'])) ?? '')?.[1])
/** Redis' CPU seconds so far (user + system). */
const redisCpu = async (): Promise<number> => {
  const info = text(await raw.command(['INFO', 'cpu'])) ?? ''
  return Number(/used_cpu_user:([\d.]+)/.exec(info)?.[1]) + Number(/used_cpu_sys:([\d.]+)/.exec(info)?.[1])
}

/** Sessions per owner ("none": no lease). */
async function owners(fleet: FleetSession[]): Promise<Map<string, FleetSession[]>> {
  const byOwner = new Map<string, FleetSession[]>()
  const of = await mapLimit(fleet, 32, ownerOf)
  fleet.forEach((s, i) => {
    const owner = of[i] ?? 'none'
    byOwner.set(owner, [...(byOwner.get(owner) ?? []), s])
  })
  return byOwner
}

/** Until every session has an owner and none moved for `quietMs`. */
async function settled(fleet: FleetSession[], quietMs = 5_000): Promise<Map<string, FleetSession[]>> {
  let last = ''
  let since = Date.now()
  for (const end = Date.now() + 300_000; Date.now() < end; ) {
    const now = await owners(fleet)
    const shape = [...now].map(([o, ss]) => `${o}:${ss.length}`).join(',')
    if (now.has('none') || shape !== last) {
      last = shape
      since = Date.now()
    } else if (Date.now() - since >= quietMs) return now
    await sleep(1_000)
  }
  throw new Error(`the cluster did not settle: ${last}`)
}

/** Once the fleet settled and the logins' initial syncs are over: each node's RSS and sessions, Redis' memory. */
async function memoryReading(fleet: FleetSession[]) {
  const placed = await settled(fleet)
  await sleep(10_000)
  return {
    placed,
    rss: nodes.map(n => rssMb(n!.child.pid!)),
    counts: nodes.map((_, i) => placed.get(`node-${i + 1}`)?.length ?? 0),
    redis: await redisUsedMemory(),
  }
}

/** GET /session of `s` through `gw`: whether it answered 200 with the session connected. */
async function connectedVia(gw: GatewayProcess, s: FleetSession): Promise<boolean> {
  const res = await fetch(`${gw.url}/session`, { headers: sessionHeaders(s) }).catch(() => undefined)
  if (!res?.ok) {
    await res?.arrayBuffer()
    return false
  }
  return ((await res.json()) as { isConnected: boolean }).isConnected
}

try {
  for (let i = 0; i < NODES; i++) await startNode(i)
  await sleep(5_000) // every node has seen the others twice
  const rssStart = nodes.map(n => rssMb(n!.child.pid!))
  const redisBefore = await redisUsedMemory()

  // pairing through the three nodes at once, a third each; a quarter first, then memory is read (the shard threads
  // are running by then), then the rest: memory per session is the growth between the two readings
  let pairMs = 0
  const phase = async (from: number, to: number) => {
    const started = performance.now()
    const parts = await Promise.all(
      nodes.map((gw, i) => {
        const share = (n: number) => Math.floor(n / NODES) + (i < n % NODES ? 1 : 0)
        return pairFleet({
          gatewayUrl: gw!.url,
          sandboxUrl: sandbox.url,
          count: share(to) - share(from),
          concurrency: Math.ceil(PAIR_CONCURRENCY / NODES),
          phoneBase: 15551000000 + i * 1_000_000 + share(from),
          onPaired: () => {
            if (++paired % 100 === 0) log(`  paired ${paired}/${SESSIONS}`)
          },
        })
      }),
    )
    pairMs += performance.now() - started
    return parts.flat()
  }
  let paired = 0
  const first = await phase(0, Math.floor(SESSIONS / 4))
  const atQuarter = await memoryReading(first)
  const fleet = [...first, ...(await phase(Math.floor(SESSIONS / 4), SESSIONS))]
  const pairSeconds = pairMs / 1000
  const atEnd = await memoryReading(fleet)
  const { placed, counts } = atEnd
  // idle: each node's heartbeat and ownership pass, the sessions' keep-alives and lease renewals
  const idleFrom = { at: performance.now(), nodes: nodes.map(n => cpuSeconds(n!.child.pid!)), redis: await redisCpu() }
  await sleep(IDLE_MS)
  const idleSeconds = (performance.now() - idleFrom.at) / 1000
  const idleCores = nodes.map((n, i) => (cpuSeconds(n!.child.pid!) - idleFrom.nodes[i]!) / idleSeconds)
  const redisIdleCores = ((await redisCpu()) - idleFrom.redis) / idleSeconds
  log(`placed ${counts.join(' / ')} after pairing ${SESSIONS} in ${pairSeconds.toFixed(0)} s`)

  // every node answers for a sample of every node's sessions
  const sample = fleet.filter((_, i) => i % Math.max(1, Math.floor(fleet.length / SAMPLE)) === 0).slice(0, SAMPLE)
  const answers = await Promise.all(nodes.map(gw => mapLimit(sample, 16, s => connectedVia(gw!, s))))
  const answered = answers.flat().filter(Boolean).length

  // SIGTERM of the busiest node: its sessions go to the two others
  const busiest = counts.indexOf(Math.max(...counts))
  const moving = placed.get(`node-${busiest + 1}`) ?? []
  const survivors = nodes.filter((_, i) => i !== busiest) as GatewayProcess[]
  log(`SIGTERM node-${busiest + 1} (${moving.length} sessions)`)
  const signalled = performance.now()
  const stopping = nodes[busiest]!.stop('SIGTERM')
  nodes[busiest] = undefined
  const back = new Map<string, number>()
  let exitSeconds = 0
  void stopping.then(() => {
    exitSeconds = (performance.now() - signalled) / 1000
  })
  for (let round = 0; back.size < moving.length && performance.now() - signalled < 180_000; round++) {
    const waiting = moving.filter(s => !back.has(s.id))
    const now = await mapLimit(waiting, 16, s => connectedVia(survivors[round % survivors.length]!, s))
    const at = (performance.now() - signalled) / 1000
    waiting.forEach((s, i) => {
      if (now[i]) back.set(s.id, at)
    })
    if (back.size < moving.length) await sleep(250)
  }
  await stopping
  const after = await owners(moving)
  const onSurvivors = moving.length - (after.get('none')?.length ?? 0) - (after.get(`node-${busiest + 1}`)?.length ?? 0)
  const times = [...back.values()]
  const last = times.length ? Math.max(...times) : NaN

  const even = SESSIONS / NODES
  const spread = Math.max(...counts.map(c => Math.abs(c - even) / even))
  report.add({
    figure: `sessions each node runs, ${SESSIONS} over ${NODES} nodes`,
    value: Math.min(...counts),
    unit: 'sessions (fewest)',
    goal: '≤ 25 % from an even third',
    met: spread <= 0.25,
    detail: `${counts.join(' / ')} (at most ${(spread * 100).toFixed(0)} % from an even third); paired through the three nodes in ${pairSeconds.toFixed(0)} s (${(SESSIONS / pairSeconds).toFixed(1)} a second)`,
  })
  report.add({
    figure: 'GET /session through every node, 200 and connected',
    value: answered / (sample.length * NODES),
    unit: 'share',
    goal: '1',
    met: answered === sample.length * NODES,
    detail: `${answered} of ${sample.length} sessions × ${NODES} nodes`,
  })
  report.add({
    figure: `SIGTERM of a node → its sessions connected on the others`,
    value: last,
    unit: 's',
    goal: `≤ lease (${LEASE_MS / 1000} s)`,
    met: back.size === moving.length && last <= LEASE_MS / 1000,
    detail: `${back.size}/${moving.length} connected again (p50 ${percentile(times, 0.5).toFixed(1)} s, p99 ${percentile(times, 0.99).toFixed(1)} s); ${onSurvivors} leased by a survivor; the node exited ${exitSeconds.toFixed(1)} s after the signal`,
  })
  counts.forEach((count, i) => {
    const perSession = (atEnd.rss[i]! - atQuarter.rss[i]!) / (count - atQuarter.counts[i]!)
    report.add({
      figure: `node-${i + 1} memory per session`,
      value: perSession,
      unit: 'MB',
      goal: '≤ 1 MB',
      met: perSession <= 1,
      detail: `RSS ${atQuarter.rss[i]!.toFixed(0)} MB with ${atQuarter.counts[i]} sessions → ${atEnd.rss[i]!.toFixed(0)} MB with ${count}; ${rssStart[i]!.toFixed(0)} MB before any session (its shard threads not started)`,
    })
  })
  report.add({
    figure: `CPU of the idle cluster, ${SESSIONS} sessions`,
    value: idleCores.reduce((a, b) => a + b, 0) + redisIdleCores,
    unit: 'cores',
    detail: `nodes ${idleCores.map(c => c.toFixed(3)).join(' / ')}, Redis ${redisIdleCores.toFixed(3)}, over ${IDLE_MS / 1000} s`,
  })
  const redisPerSession = (atEnd.redis - redisBefore) / SESSIONS / 1024
  report.add({
    figure: 'Redis memory per session (used_memory)',
    value: redisPerSession,
    unit: 'KB',
    detail: `${(redisBefore / 2 ** 20).toFixed(1)} MB before any session → ${(atEnd.redis / 2 ** 20).toFixed(1)} MB with ${SESSIONS}`,
  })
} finally {
  await world.close()
}
report.finish()
