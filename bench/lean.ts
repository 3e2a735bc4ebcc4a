/**
 * What the gateway costs an operator, ours alone: the figures of the side-by-side bench against the leanest peer
 * (bench/peer/), without the peer, so BENCHMARKS.md can show them with a date and a commit:
 * - RSS with 0 sessions, and RSS growth per idle session with N paired;
 * - idle CPU (% of one core) with 0 sessions and with N connected;
 * - time to pair N sessions, 5 at a time (QR read from GET /session, scanned by a sandbox phone, until connected);
 * - two 30 s send bursts of 20 closed loops (sessions 0..19): to 20 distinct contacts, then all to one contact:
 *   2xx/s, latency, gateway CPU per delivered text (CPU of the burst and 5 s after, ÷ texts found in the
 *   recipients' inboxes on the sandbox), that CPU split by kind of thread (HTTP thread, shard threads, V8's
 *   helpers, the libuv pool), and whether every 2xx arrived; RSS after the bursts.
 * Process figures come from /proc (all threads of the gateway process); the sandbox runs at nice 19. The per-session
 * send limit is off (SEND_RATE_PER_SECOND=0), as in the side-by-side bench.
 *
 *   npm run bench:lean [-- --long]   BENCH_LEAN_SESSIONS (50; long 200), BENCH_LEAN_CONCURRENCY (5), BENCH_LEAN_LOOPS (20),
 *   BENCH_LEAN_SEND_S (30), BENCH_LEAN_IDLE0_S (30), BENCH_LEAN_IDLE_S (60), BENCH_LEAN_SETTLE_S (30)
 */
import { execFileSync } from 'node:child_process'
import { deliveredOf } from './lib/delivered.js'
import { cpuSeconds, cpuSecondsByThread, rssMb } from './lib/proc.js'
import { BenchReport, percentile } from './lib/results.js'
import { headersOf, pairSessions, type BenchSession } from './lib/sessions.js'
import { longHint, setting } from './lib/settings.js'
import { withWorld } from './lib/world.js'

const N = setting('BENCH_LEAN_SESSIONS', 50, 200)
const CONCURRENCY = setting('BENCH_LEAN_CONCURRENCY', 5)
const LOOPS = Math.min(N, setting('BENCH_LEAN_LOOPS', 20))
const SEND_S = setting('BENCH_LEAN_SEND_S', 30)
const TAIL_S = 5
const IDLE0_S = setting('BENCH_LEAN_IDLE0_S', 30)
const IDLE_S = setting('BENCH_LEAN_IDLE_S', 60)
const SETTLE_S = setting('BENCH_LEAN_SETTLE_S', 30)
const BASE_WAIT_S = 5
const ARRIVE_WAIT_S = 60
/** Bob in the sandbox's demo world; the distinct contacts are registered by the sandbox on first message. */
const ONE_CONTACT = '15550000002'
const DISTINCT_BASE = 15550000100

/** What each Node thread name is in the gateway (see `cpuSecondsByThread`). */
const THREAD_KINDS: Record<string, string> = {
  MainThread: 'HTTP thread',
  WorkerThread: 'shard threads',
  V8Worker: "V8's helpers",
  'libuv-worker': 'libuv pool',
}

const sleep = (s: number) => new Promise(resolve => setTimeout(resolve, s * 1000))
const round = (v: number, digits = 2) => Number(v.toFixed(digits))

/** Mean RSS (MB) of five samples a second apart. */
async function meanRss(pid: number): Promise<number> {
  let sum = 0
  for (let i = 0; i < 5; i++) {
    sum += rssMb(pid)
    if (i < 4) await sleep(1)
  }
  return sum / 5
}

/** CPU of `pid` over `seconds` of doing nothing, as % of one core. */
async function idleCpu(pid: number, seconds: number): Promise<number> {
  const c0 = cpuSeconds(pid)
  const t0 = performance.now()
  await sleep(seconds)
  return ((cpuSeconds(pid) - c0) / ((performance.now() - t0) / 1000)) * 100
}

interface Burst {
  okPerS: number
  ok: number
  other: number
  delivered: number
  lost: number
  cpuMsPerDelivered: number
  /** The same CPU split by kind of thread, ms per delivered text. */
  byThread: Record<string, number>
  p50Ms: number
  p99Ms: number
}

async function burst(
  gatewayUrl: string,
  sandboxUrl: string,
  pid: number,
  sessions: BenchSession[],
  to: (k: number) => string,
  tag: string,
): Promise<Burst> {
  const sent = new Map<string, string[]>()
  const latencies: number[] = []
  let other = 0
  const c0 = cpuSeconds(pid)
  const threads0 = cpuSecondsByThread(pid)
  const t0 = performance.now()
  const end = t0 + SEND_S * 1000
  await Promise.all(
    Array.from({ length: LOOPS }, async (_, k) => {
      const s = sessions[k]!
      const phone = to(k)
      for (let i = 0; performance.now() < end; i++) {
        const started = performance.now()
        const res = await fetch(`${gatewayUrl}/message`, {
          method: 'POST',
          headers: { ...headersOf(s), 'content-type': 'application/json' },
          body: JSON.stringify({ phone, type: 'text', text: `lean ${tag} ${k}.${i}` }),
        }).catch(() => undefined)
        if (res?.status !== 200) {
          other++
          await res?.arrayBuffer()
          await sleep(0.05)
          continue
        }
        const { messageId } = (await res.json()) as { messageId: string }
        latencies.push(performance.now() - started)
        sent.set(phone, [...(sent.get(phone) ?? []), messageId])
      }
    }),
  )
  const seconds = (performance.now() - t0) / 1000
  await sleep(TAIL_S)
  const cpuMs = (cpuSeconds(pid) - c0) * 1000
  const threadsMs = new Map(
    [...cpuSecondsByThread(pid)].map(([name, s]) => [name, (s - (threads0.get(name) ?? 0)) * 1000]),
  )
  const ok = latencies.length
  const delivered = await deliveredOf(sandboxUrl, sent, ok, ARRIVE_WAIT_S, 2)
  return {
    okPerS: ok / seconds,
    ok,
    other,
    delivered,
    lost: ok - delivered,
    cpuMsPerDelivered: delivered ? cpuMs / delivered : NaN,
    byThread: Object.fromEntries([...threadsMs].map(([name, ms]) => [THREAD_KINDS[name] ?? name, ms / delivered])),
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
  }
}

/** "shard threads 2.91, HTTP thread 0.62, ..." (ms per delivered text), largest first. */
const threadSplit = (b: Burst) =>
  Object.entries(b.byThread)
    .filter(([, ms]) => ms >= 0.005)
    .sort((x, y) => y[1] - x[1])
    .map(([kind, ms]) => `${kind} ${round(ms, 2)}`)
    .join(', ')

const commit = (() => {
  try {
    return execFileSync('git', ['rev-parse', '--short=8', 'HEAD'], { encoding: 'utf8' }).trim()
  } catch {
    return '?'
  }
})()
const report = new BenchReport('lean', {
  sessions: N,
  concurrency: CONCURRENCY,
  loops: LOOPS,
  sendSeconds: SEND_S,
  commit,
  node: process.version,
})
longHint('200 sessions')
const env = { SEND_RATE_PER_SECOND: '0', SEND_BURST: '100000', LOG_LEVEL: 'warn' }
await withWorld(
  'lean',
  env,
  async ({ gateway, sandbox }) => {
    const pid = gateway.child.pid!
    await sleep(BASE_WAIT_S)
    const rss0 = await meanRss(pid)
    console.log(`  RSS at 0 sessions: ${round(rss0, 1)} MB`)
    const idle0 = IDLE0_S > 0 ? await idleCpu(pid, IDLE0_S) : NaN
    console.log(`  idle CPU at 0 sessions: ${round(idle0)} %`)

    const t0 = performance.now()
    const sessions = await pairSessions({
      gatewayUrl: gateway.url,
      sandboxUrl: sandbox.url,
      count: N,
      concurrency: CONCURRENCY,
      phoneBase: 15550300000,
    })
    const pairS = (performance.now() - t0) / 1000
    console.log(`  paired ${N} in ${round(pairS)} s; settling ${SETTLE_S} s`)
    await sleep(SETTLE_S)
    const rssN = await meanRss(pid)
    const perSession = (rssN - rss0) / N
    console.log(`  RSS with ${N} idle: ${round(rssN, 1)} MB (${round(perSession, 3)} MB per session)`)
    const idleN = await idleCpu(pid, IDLE_S)
    console.log(`  idle CPU with ${N} connected: ${round(idleN)} %`)

    const distinct = await burst(gateway.url, sandbox.url, pid, sessions, k => String(DISTINCT_BASE + k), 'distinct')
    console.log(
      `  to ${LOOPS} contacts: ${round(distinct.okPerS, 0)} 2xx/s, ${round(distinct.cpuMsPerDelivered, 3)} ms CPU per delivered (${threadSplit(distinct)}), ${distinct.lost} lost`,
    )
    const one = await burst(gateway.url, sandbox.url, pid, sessions, () => ONE_CONTACT, 'one')
    console.log(
      `  to one contact: ${round(one.okPerS, 0)} 2xx/s, ${round(one.cpuMsPerDelivered, 3)} ms CPU per delivered (${threadSplit(one)}), ${one.lost} lost`,
    )
    const rssAfter = await meanRss(pid)

    const burstDetail = (b: Burst) =>
      `${LOOPS} closed loops, ${SEND_S} s; ${b.ok} 2xx, ${b.other} other, ${b.delivered} found in the inboxes; latency p50 ${round(b.p50Ms, 0)} ms, p99 ${round(b.p99Ms, 0)} ms`

    report.add({
      figure: 'RSS with 0 sessions',
      value: rss0,
      unit: 'MB',
      detail: `VmRSS of the gateway process, mean of 5 samples, ${BASE_WAIT_S} s after start`,
    })
    report.add({
      figure: `RSS growth per idle session, N=${N}`,
      value: perSession,
      unit: 'MB',
      detail: `(RSS with ${N} idle − RSS with 0) ÷ ${N}, ${SETTLE_S} s after the last pairing`,
    })
    report.add({
      figure: 'idle CPU with 0 sessions',
      value: idle0,
      unit: '% of a core',
      detail: `utime+stime over ${IDLE0_S} s`,
    })
    report.add({
      figure: `idle CPU with ${N} sessions connected`,
      value: idleN,
      unit: '% of a core',
      detail: `utime+stime over ${IDLE_S} s`,
    })
    report.add({
      figure: `time to pair ${N} sessions, ${CONCURRENCY} at a time`,
      value: pairS,
      unit: 's',
      detail: 'POST /session → QR → sandbox scan → isConnected, for all',
    })
    report.add({
      figure: `gateway CPU per delivered text, ${LOOPS} senders → ${LOOPS} contacts`,
      value: distinct.cpuMsPerDelivered,
      unit: 'ms',
      detail: `${burstDetail(distinct)}; by thread, ms: ${threadSplit(distinct)}`,
    })
    report.add({
      figure: `gateway CPU per delivered text, ${LOOPS} senders → one contact`,
      value: one.cpuMsPerDelivered,
      unit: 'ms',
      detail: `${burstDetail(one)}; by thread, ms: ${threadSplit(one)}`,
    })
    report.add({
      figure: `2xx/s, ${LOOPS} senders → ${LOOPS} contacts`,
      value: distinct.okPerS,
      unit: '/s',
      detail: burstDetail(distinct),
    })
    report.add({
      figure: `2xx/s, ${LOOPS} senders → one contact`,
      value: one.okPerS,
      unit: '/s',
      detail: burstDetail(one),
    })
    report.add({
      figure: "2xx sends not found in the recipient's inbox",
      value: distinct.lost + one.lost,
      unit: 'messages',
      goal: '0',
      met: distinct.lost + one.lost === 0,
      detail: `of ${distinct.ok + one.ok}`,
    })
    report.add({ figure: 'RSS after the two send bursts', value: rssAfter, unit: 'MB', detail: 'mean of 5 samples' })
  },
  [],
  undefined,
  { sandboxNice: 19 },
)
report.finish()
