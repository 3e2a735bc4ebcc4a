/**
 * The floor under the gateway's CPU per message (what is the runtime's): Baileys alone, no gateway, against the same
 * sandbox, beside the gateway itself, in one run. `bench/bare/client.ts` pairs N sockets in one process with
 * in-memory keys and sends texts the way the gateway does (the contact's LID, our own id, the server's ack, the
 * privacy-token record), or (TARGET=gateway) drives the gateway's `POST /message` with the same loops.
 *
 * Variants, alternating round by round (the order rotates, so none always runs first):
 * - `node`: Baileys on Node as the gateway runs it, with the gateway's patch inventory (patches/inventory.ts);
 * - `bun`: Baileys on Bun, the peer gateway's runtime, as installed (when BUN names its binary);
 * - `gateway`: `node dist/main.js` (the image's settings, LOG_LEVEL=warn, per-session send limit off), its load
 *   generator at nice 19;
 * - `node-unpatched` (BENCH_BARE_UNPATCHED=1): Baileys on Node as installed.
 * Every variant is offered the same load (BENCH_BARE_RATE texts per second over all loops; 0 = closed loops, as fast
 * as each goes), so CPU per message is compared at equal throughput. Each round is a fresh sandbox (nice 19) and
 * fresh accounts. The privacy-token issuances per send (the sandbox's `GET /stats`) must be ~0 for all: a send that
 * issues the token again costs an extra round trip that the gateway does not make.
 *
 *   npm run bench:bare   BENCH_BARE_SESSIONS (20), BENCH_BARE_LOOPS (20), BENCH_BARE_SEND_S (15), BENCH_BARE_ROUNDS (3),
 *   BENCH_BARE_RATE (250), BENCH_BARE_VARIANTS (node,bun,gateway), BUN=<path to a bun binary>
 * Builds `dist/` first (the client loads the gateway's patches and its token record from there).
 *
 * A/B of gateway builds or settings: BENCH_BARE_GATEWAYS='[{"label":"A","dir":"/path/to/tree"},{"label":"B",
 * "env":{"SETTING":"value"},"nodeArgs":["--flag"]}]' replaces the one `gateway` variant by one per entry (`gateway A`,
 * `gateway B`), each `node [nodeArgs] dist/main.js` of its tree (default: this one, built first) with its extra
 * environment, in the same rotation. `"cluster":true` runs that entry as one cluster node instead: its own fresh
 * redis-server on a free loopback port per round, with REDIS_URL, CLUSTER_SECRET, DATA_KEY, NODE_ID and ADVERTISE_URL
 * set (bench/lib/built-gateway.ts), so its CPU per text counts what cluster mode adds on one node; the
 * redis-server's own CPU per text is reported beside it, not in it.
 */
import { execFileSync } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { startSandbox } from '../test/support/processes.js'
import { REDIS_KIND } from './bare/gateway-target.js'
import { type BareRound, runBareClient } from './lib/bare-client.js'
import { buildDist, startBuiltClusterNode, startBuiltGateway } from './lib/built-gateway.js'
import { BenchReport, median } from './lib/results.js'
import { setting } from './lib/settings.js'

const N = setting('BENCH_BARE_SESSIONS', 20)
const LOOPS = Math.min(N, setting('BENCH_BARE_LOOPS', 20))
const SEND_S = setting('BENCH_BARE_SEND_S', 15)
const ROUNDS = setting('BENCH_BARE_ROUNDS', 3)
const RATE = setting('BENCH_BARE_RATE', 250)
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

interface Variant {
  name: string
  command: string
  args: string[]
  env?: Record<string, string>
  /** Starts what the client measures besides itself (the gateway), returning its env for the client and a stop. */
  around?: (sandboxUrl: string) => Promise<{ env: Record<string, string>; stop: () => Promise<void> }>
}

async function round(variant: Variant): Promise<BareRound> {
  const sandbox = await startSandbox(undefined, undefined, { nice: 19 })
  const around = await variant.around?.(sandbox.url)
  try {
    return await runBareClient(variant.command, variant.args, {
      ...variant.env,
      ...around?.env,
      SANDBOX_URL: sandbox.url,
      N: String(N),
      LOOPS: String(LOOPS),
      SEND_S: String(SEND_S),
      RATE: String(RATE),
    })
  } finally {
    await around?.stop()
    await sandbox.stop()
  }
}

interface GatewayBuild {
  label: string
  dir?: string
  env?: Record<string, string>
  /** Node options before `dist/main.js` (V8 flags, e.g. a GC setting to A/B). */
  nodeArgs?: string[]
  /** One cluster node on its own redis-server, instead of the single-node gateway. */
  cluster?: boolean
}
const builds: GatewayBuild[] = process.env.BENCH_BARE_GATEWAYS
  ? (JSON.parse(process.env.BENCH_BARE_GATEWAYS) as GatewayBuild[])
  : [{ label: '' }]
const node = process.execPath
const all: Variant[] = [
  { name: 'node', command: node, args: ['--no-warnings'], env: { BARE_GATEWAY_PATCHES: '1' } },
  ...(process.env.BUN ? [{ name: 'bun', command: process.env.BUN, args: [] }] : []),
  ...builds.map(b => ({
    name: b.label ? `gateway ${b.label}` : 'gateway',
    command: 'nice',
    args: ['-n', '19', node, '--no-warnings', '--import', 'tsx'],
    env: { TARGET: 'gateway' },
    around: async (sandboxUrl: string) => {
      const env: Record<string, string> = {}
      const gateway = b.cluster
        ? await startBuiltClusterNode(sandboxUrl, b.dir ?? root, b.env, b.nodeArgs)
        : await startBuiltGateway(sandboxUrl, b.dir ?? root, b.env, b.nodeArgs)
      if ('redisPid' in gateway) env.REDIS_PID = String(gateway.redisPid)
      return { env: { ...env, GATEWAY_URL: gateway.url, GATEWAY_PID: String(gateway.pid) }, stop: gateway.stop }
    },
  })),
  { name: 'node-unpatched', command: node, args: ['--no-warnings'] },
]
const wanted = (process.env.BENCH_BARE_VARIANTS ?? 'node,bun,gateway').split(',')
if (process.env.BENCH_BARE_UNPATCHED === '1') wanted.push('node-unpatched')
const variants = all.filter(
  v => wanted.includes(v.name) || (v.name.startsWith('gateway') && wanted.includes('gateway')),
)

/** The commit a tree is at (with `+dirty` when it has changes), for the result file. */
const commitOf = (dir: string) =>
  execFileSync('git', ['-C', dir, 'describe', '--always', '--dirty=+dirty', '--abbrev=8'], { encoding: 'utf8' }).trim()

for (const dir of new Set([root, ...builds.map(b => b.dir ?? root)])) buildDist(dir)
const report = new BenchReport('bare-baileys', {
  N,
  LOOPS,
  SEND_S,
  ROUNDS,
  RATE,
  variants: variants.map(v => v.name),
  // each tree by its commit, not its path: a result file names no place on the machine that ran it
  gateways: builds.map(({ dir, ...build }) => (dir ? { ...build, commit: commitOf(dir) } : build)),
})
const results = new Map<string, BareRound[]>(variants.map(v => [v.name, []]))
for (let r = 0; r < ROUNDS; r++) {
  // rotate the order so that no variant always runs first (or right after the same one)
  const order = variants.map((_, i) => variants[(i + r) % variants.length]!)
  for (const variant of order) {
    const result = await round(variant)
    console.log(`  round ${r + 1} ${variant.name}: ${JSON.stringify(result)}`)
    results.get(variant.name)!.push(result)
  }
}

const spread = (xs: number[]) => `${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}`
const load = RATE > 0 ? `offered ${RATE}/s` : 'closed loops'
for (const [name, rounds] of results) {
  const cpu = rounds.map(r => r.cpuMsPerAcked)
  const rate = rounds.map(r => r.ackedPerSecond)
  const detail = `${rounds[0]!.runtime}; ${N} sessions, ${LOOPS} loops to ${LOOPS} contacts, ${SEND_S} s, ${load}; median of ${rounds.length} rounds, spread ${spread(cpu)} ms at ${spread(rate)} acked/s; ${rounds.reduce((a, r) => a + r.delivered, 0)} of ${rounds.reduce((a, r) => a + r.acked, 0)} acked texts found in the inboxes, ${rounds.reduce((a, r) => a + r.failed, 0)} failed`
  report.add({ figure: `${name}: CPU per acked text`, value: median(cpu), unit: 'ms', detail })
  report.add({ figure: `${name}: acked texts per second`, value: median(rate), unit: '/s', detail })
  report.add({ figure: `${name}: latency p50`, value: median(rounds.map(r => r.p50Ms)), unit: 'ms', detail })
  const redis = rounds.flatMap(r => r.byThread?.[REDIS_KIND] ?? [])
  if (redis.length)
    report.add({ figure: `${name}: ${REDIS_KIND} CPU per acked text`, value: median(redis), unit: 'ms', detail })
  report.add({
    figure: `${name}: privacy-token issuances per send`,
    value: median(rounds.map(r => r.privacyTokenIssuesPerSend)),
    unit: '',
    goal: '≈ 0',
    met: rounds.every(r => r.privacyTokenIssuesPerSend < 0.01),
    detail,
  })
  report.note(name, rounds)
}
// what each gateway adds over Baileys on Node, round by round (paired: the same sitting, the same load)
const floor = results.get('node')
for (const [name, rounds] of results) {
  if (!floor || !name.startsWith('gateway')) continue
  const added = rounds.map((g, i) => g.cpuMsPerAcked - floor[i]!.cpuMsPerAcked)
  report.add({
    figure: `${name} − Baileys on Node: CPU the gateway adds per text`,
    value: median(added),
    unit: 'ms',
    detail: `per round ${added.map(a => a.toFixed(2)).join(' / ')} ms; ${load}`,
  })
}
report.finish()
