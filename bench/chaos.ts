/**
 * A chaos run of a three-node cluster (what its clients and the platform see while things fail, one at a time,
 * for half an hour): one redis-server (AOF everysec), the sandbox (nice 19), three gateway nodes on loopback with
 * the production lease settings, SESSIONS paired sessions, each sending a text to its contact every 5–10 s through a
 * random node from a load client of its own (nice 19) that honours Retry-After (bench/lib/chaos-load.ts). Every
 * 30–90 s (seeded) one fault strikes: SIGKILL a node and start it again, SIGSTOP a node past its lease then
 * SIGCONT, SIGTERM a node and start it again, restart Redis, or drop one session's platform connection
 * (bench/lib/chaos-faults.ts).
 *
 * At the end, after a settle time, one JSON line (also bench/results/chaos.json): faults (and by kind), sends
 * answered 200, lost (answered but never at the contact), doubled (at the contact twice), concurrentSockets (the
 * sandbox saw two live connections of one session: bench/lib/chaos-tally.ts), the p99 time from a fault until the
 * sessions it touched answer connected again, and the p99 length of an unavailable stretch a session's client saw.
 *
 *   npm run bench:chaos   BENCH_CHAOS_MINUTES (30), BENCH_CHAOS_SESSIONS (200), BENCH_CHAOS_SEED (1),
 *                         BENCH_CHAOS_GAP_MIN_S (30), BENCH_CHAOS_GAP_MAX_S (90), BENCH_CHAOS_SEND_MIN_S (5),
 *                         BENCH_CHAOS_SEND_MAX_S (10), BENCH_CHAOS_KINDS (all: sigkill,sigstop,sigterm,
 *                         redis-restart,drop-connection); node logs in $TMPDIR/bench-chaos-*, kept when a figure is not 0
 */
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { startSandbox } from '../test/support/processes.js'
import { startRedisServer } from '../test/support/redis-server.js'
import { connectRedis } from '../src/cluster/store/connection.js'
import { ChaosCluster, NODES } from './lib/chaos-cluster.js'
import { FAULT_KINDS, seeded, strike, type FaultKind, type FaultRecord } from './lib/chaos-faults.js'
import type { LoadResult, LoadSession, ToLoad } from './lib/chaos-load.js'
import { concurrentSockets, deliveries, readLedger, type LedgerWindow } from './lib/chaos-tally.js'
import { pairFleet } from './lib/fleet.js'
import { percentile } from './lib/results.js'
import { setting } from './lib/settings.js'
import { settled } from './lib/settled.js'

const MINUTES = setting('BENCH_CHAOS_MINUTES', 30)
const SESSIONS = setting('BENCH_CHAOS_SESSIONS', 200)
const SEED = setting('BENCH_CHAOS_SEED', 1)
const GAP_MIN_S = setting('BENCH_CHAOS_GAP_MIN_S', 30)
const GAP_MAX_S = setting('BENCH_CHAOS_GAP_MAX_S', 90)
const SEND_MIN_S = setting('BENCH_CHAOS_SEND_MIN_S', 5)
const SEND_MAX_S = setting('BENCH_CHAOS_SEND_MAX_S', 10)
/** The production lease (CLUSTER_LEASE_TTL_MS' default): a frozen node stays stopped 5 s past it. */
const LEASE_MS = 15_000
const SETTLE_MS = 60_000
/** The faults drawn from (a comma list of FAULT_KINDS, to replay one kind alone); all by default. */
const KINDS = (process.env.BENCH_CHAOS_KINDS?.split(',') ?? [...FAULT_KINDS]) as FaultKind[]
for (const k of KINDS) if (!FAULT_KINDS.includes(k)) throw new Error(`BENCH_CHAOS_KINDS: unknown fault ${k}`)
const CONTACTS = Array.from({ length: 10 }, (_, i) => String(15550980000 + i))

const here = path.dirname(fileURLToPath(import.meta.url))
const workDir = mkdtempSync(path.join(os.tmpdir(), 'bench-chaos-'))
const started = Date.now()
const log = (line: string) => console.log(`[chaos ${((Date.now() - started) / 1000).toFixed(0).padStart(5)} s] ${line}`)
const sleep = (ms: number) => new Promise(r => setTimeout(r, ms))

const redis = await startRedisServer()
const raw = await connectRedis(redis.url)
const sandbox = await startSandbox(undefined, undefined, { nice: 19, exitWithParent: true })
const load = spawn('nice', ['-n', '19', process.execPath, '--import', 'tsx', path.join(here, 'lib/chaos-load.ts')], {
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
})
const toLoad = (msg: ToLoad) => load.send(msg)
const cluster = new ChaosCluster(
  redis,
  raw,
  {
    DATA_KEY: randomBytes(32).toString('base64'),
    CLUSTER_SECRET: randomBytes(32).toString('base64url'),
    SANDBOX_URL: sandbox.url,
    SESSION_CREATE_PER_MINUTE: '0',
    UNPAIRED_PER_CLIENT: '0',
    SEND_RATE_PER_SECOND: '0',
  },
  workDir,
  urls => {
    if (load.connected) toLoad({ type: 'nodes', nodes: urls })
  },
)
let keepLogs = true
try {
  for (let i = 0; i < NODES; i++) await cluster.start(i)
  await sleep(5_000) // every node has seen the others twice
  await fetch(`${sandbox.url}/world`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ accounts: CONTACTS.map((phone, i) => ({ phone, name: `Contact ${i}` })) }),
  })
  const fleet = await pairFleet({
    gatewayUrl: cluster.nodes[0]!.url,
    sandboxUrl: sandbox.url,
    count: SESSIONS,
    concurrency: 5,
    phoneBase: 15550700000,
    onPaired: (done, count) => done % 20 === 0 && log(`paired ${done}/${count}`),
  })
  await settled(
    fleet.map(s => s.id),
    id => cluster.ownerOf(id),
  )
  log(`${SESSIONS} sessions paired and placed; ${MINUTES} min of load and faults (seed ${SEED})`)

  const sessions: LoadSession[] = fleet.map((s, i) => ({ ...s, contact: CONTACTS[i % CONTACTS.length]! }))
  toLoad({
    type: 'start',
    sessions,
    nodes: cluster.liveUrls(),
    sendMinMs: SEND_MIN_S * 1000,
    sendMaxMs: SEND_MAX_S * 1000,
  })
  const rng = seeded(SEED)
  const windows: LedgerWindow[] = [{ before: await readLedger(sandbox.url) }]
  const faults: FaultRecord[] = []
  const runEnd = Date.now() + MINUTES * 60_000
  for (;;) {
    const gap = (GAP_MIN_S + rng() * (GAP_MAX_S - GAP_MIN_S)) * 1000
    const kind = KINDS[Math.floor(rng() * KINDS.length)]!
    if (Date.now() + gap >= runEnd) break
    await sleep(gap)
    const before = await readLedger(sandbox.url)
    const fault = await strike(kind, { cluster, fleet, sandboxUrl: sandbox.url, freezeMs: LEASE_MS + 5_000, rng, log })
    const times = fault.takeoverMs.filter((t): t is number => t !== undefined)
    log(`  ${kind}: ${times.length}/${fault.takeoverMs.length} answering again, last after ${Math.max(0, ...times)} ms`)
    faults.push(fault)
    windows.push({ before, fault })
  }
  await sleep(Math.max(0, runEnd - Date.now()))

  log('load stopping; every session finishes its send')
  const result = await new Promise<LoadResult>(resolve => {
    load.once('message', m => resolve(m as LoadResult))
    toLoad({ type: 'stop' })
  })
  const end = await readLedger(sandbox.url)
  log('settling: every answered text at its contact')
  const delivered = await deliveries(sandbox.url, result.answered, SETTLE_MS)
  const concurrent = concurrentSockets(windows, end)
  const takeovers = faults.flatMap(f => f.takeoverMs.map(t => t ?? 180_000))
  const byKind = Object.fromEntries(FAULT_KINDS.map(k => [k, faults.filter(f => f.kind === k).length]))
  const figures = {
    minutes: MINUTES,
    faults: faults.length,
    answered: Object.values(result.answered).reduce((n, t) => n + t.length, 0),
    lost: delivered.lost,
    doubled: delivered.doubled,
    concurrentSockets: concurrent.concurrentSockets,
    takeoverP99Ms: Math.round(percentile(takeovers, 0.99)),
    unavailableP99Ms: Math.round(percentile(result.stretches, 0.99)),
    sessions: SESSIONS,
    seed: SEED,
    faultsByKind: byKind,
    takeoverMaxMs: Math.max(0, ...takeovers),
    takeoverNever: faults.reduce((n, f) => n + f.takeoverMs.filter(t => t === undefined).length, 0),
    unavailableStretches: result.stretches.length,
    unavailableMaxMs: Math.max(0, ...result.stretches),
    answeredAfterRetry: result.retried,
    sendsEndedOtherwise: result.ended,
    replacedKicks: concurrent.replacedKicks,
    replacedKicksOfFrozenNodes: concurrent.expectedKicks,
    supersededStanzas: concurrent.supersededStanzas,
  }
  if (delivered.lost || delivered.doubled || concurrent.concurrentSockets) {
    writeFileSync(
      path.join(workDir, 'post-mortem.json'),
      JSON.stringify(
        {
          ...delivered,
          trails: [...delivered.lostTexts, ...delivered.doubledTexts].map(t => [t, result.trails[t]]),
          moments: concurrent.moments,
          faults: faults.map(f => ({ ...f, mayKick: [...f.mayKick] })),
          fleet: fleet.map((s, i) => [i, s.id, s.phone]),
          nodeUrls: cluster.history,
        },
        null,
        2,
      ),
    )
    log(`post-mortem (node logs, lost and doubled texts, moments) in ${workDir}`)
  } else keepLogs = false
  const line = JSON.stringify(figures)
  mkdirSync(path.join(here, 'results'), { recursive: true })
  writeFileSync(path.join(here, 'results', 'chaos.json'), `${line}\n`)
  console.log(line)
} finally {
  if (load.exitCode === null) load.kill('SIGKILL')
  await cluster.stopAll()
  await raw.close()
  await sandbox.stop()
  await redis.stop()
  if (!keepLogs) rmSync(workDir, { recursive: true, force: true })
}
