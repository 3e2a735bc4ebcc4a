/**
 * @module bench/lib/chaos-faults
 * The faults of the chaos bench, one at a time, each chosen by a seeded generator (a run can be replayed with its
 * BENCH_CHAOS_SEED): SIGKILL a node and start it again; SIGSTOP a node past its lease, then SIGCONT; SIGTERM a node
 * (it hands its sessions over) and start it again; restart Redis (SIGTERM, it writes its AOF, then up again on the
 * same port and folder); drop one session's platform connection on the sandbox (POST /faults `dropSessionOf`).
 *
 * For each fault: the sessions it touched (those the node held, every session for Redis, the one dropped), and how
 * long after it each of them answered again (GET /session 200 and connected through a node the balancer uses),
 * and which accounts may show one 440 `replaced` for it: a frozen node's sockets stay open, so the node that takes
 * its sessions over logs in while they do; any other 440 is two live connections of one session.
 */
import type { ChaosCluster } from './chaos-cluster.js'
import { NODES } from './chaos-cluster.js'
import type { FleetSession } from './fleet.js'

export const FAULT_KINDS = ['sigkill', 'sigstop', 'sigterm', 'redis-restart', 'drop-connection'] as const
export type FaultKind = (typeof FAULT_KINDS)[number]

export interface FaultRecord {
  kind: FaultKind
  /** ms since the epoch when it struck. */
  at: number
  /** The node (index) or session (index) it hit. */
  target: number
  /** Per touched session, ms from the fault to its first connected answer (undefined: never within the probe). */
  takeoverMs: (number | undefined)[]
  /** Accounts whose session may show one 440 for this fault (the frozen node's). */
  mayKick: Set<string>
}

/** A small seeded generator (mulberry32): the same seed gives the same faults, targets and gaps. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const sleep = (ms: number) => new Promise(r => setTimeout(r, ms))
const PROBE_EVERY_MS = 1_000
const PROBE_FOR_MS = 180_000

/** Whether the session answers connected through one of the balancer's nodes. */
async function answers(cluster: ChaosCluster, s: FleetSession): Promise<boolean> {
  const urls = cluster.liveUrls()
  const url = urls[Math.floor(Math.random() * urls.length)]
  if (!url) return false
  try {
    const res = await fetch(`${url}/session`, {
      headers: { id: s.id, 'session-id': s.sessionId },
      signal: AbortSignal.timeout(5_000),
    })
    if (res.status !== 200) {
      await res.arrayBuffer()
      return false
    }
    return ((await res.json()) as { isConnected?: boolean }).isConnected === true
  } catch {
    return false
  }
}

/** For each session, ms from `at` until it answers connected (probed once a second, for at most 3 minutes). */
async function probe(cluster: ChaosCluster, sessions: FleetSession[], at: number): Promise<(number | undefined)[]> {
  return Promise.all(
    sessions.map(async s => {
      await sleep(Math.random() * 200) // spread the probes over the first instants
      for (; Date.now() - at < PROBE_FOR_MS; await sleep(PROBE_EVERY_MS)) {
        if (await answers(cluster, s)) return Date.now() - at
      }
      return undefined
    }),
  )
}

export interface FaultContext {
  cluster: ChaosCluster
  fleet: FleetSession[]
  sandboxUrl: string
  /** How long a frozen node stays stopped: past its lease. */
  freezeMs: number
  rng: () => number
  log: (line: string) => void
}

/** The sessions whose lease node `i` holds now. */
async function heldBy(ctx: FaultContext, i: number): Promise<FleetSession[]> {
  const owners = await Promise.all(ctx.fleet.map(s => ctx.cluster.ownerOf(s.id)))
  return ctx.fleet.filter((_, k) => owners[k] === `node-${i + 1}`)
}

/**
 * Strikes one fault of `kind`, recovers from it as an operator would (a stopped node is started again), and
 * resolves once the touched sessions answer again (or the probe gave up on them).
 */
export async function strike(kind: FaultKind, ctx: FaultContext): Promise<FaultRecord> {
  const { cluster, fleet, rng } = ctx
  const node = Math.floor(rng() * NODES)
  const record = (target: number, at: number, takeoverMs: (number | undefined)[], mayKick = new Set<string>()) => ({
    kind,
    at,
    target,
    takeoverMs,
    mayKick,
  })
  switch (kind) {
    case 'sigkill':
    case 'sigterm': {
      const touched = await heldBy(ctx, node)
      const at = Date.now()
      const probing = probe(cluster, touched, at)
      await cluster.stop(node, kind === 'sigkill' ? 'SIGKILL' : 'SIGTERM')
      ctx.log(`${kind} node-${node + 1} (${touched.length} sessions), exited after ${Date.now() - at} ms`)
      await cluster.start(node)
      return record(node, at, await probing)
    }
    case 'sigstop': {
      const touched = await heldBy(ctx, node)
      const at = Date.now()
      cluster.freeze(node, true)
      const probing = probe(cluster, touched, at)
      ctx.log(`sigstop node-${node + 1} (${touched.length} sessions) for ${ctx.freezeMs} ms`)
      await sleep(ctx.freezeMs)
      cluster.freeze(node, false)
      return record(node, at, await probing, new Set(touched.map(s => s.phone)))
    }
    case 'redis-restart': {
      const at = Date.now()
      await cluster.redis.down()
      await cluster.redis.up()
      ctx.log(`redis restarted in ${Date.now() - at} ms`)
      return record(-1, at, await probe(cluster, fleet, at))
    }
    case 'drop-connection': {
      const k = Math.floor(rng() * fleet.length)
      const s = fleet[k]!
      const at = Date.now()
      const res = await fetch(`${ctx.sandboxUrl}/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ dropSessionOf: s.phone }),
      })
      const { dropped } = (await res.json()) as { dropped: number }
      ctx.log(`dropped the platform connection of session ${k} (${dropped} link)`)
      return record(k, at, await probe(cluster, [s], at))
    }
  }
}
