/**
 * The floor under the gateway's CPU per message (issue 19): Baileys alone, no gateway, against the same sandbox.
 * `bench/bare/client.ts` pairs N sockets in one process with in-memory keys and sends text in closed loops, each
 * message waiting for the server's ack (as the gateway does before its 200). Run on Node as installed, on Node with
 * the gateway's patches to Baileys' hot paths (src/platform/baileys/patches), and on Bun when BUN names its binary
 * (the peer gateway's runtime), it splits the gap between the gateway and the peer into what the runtime costs with
 * the same library and what the gateway adds around it (store, threads, HTTP): compare its CPU per acked message
 * with `bench:lean`'s CPU per delivered text at the same loops.
 *
 *   npm run bench:bare   BENCH_BARE_SESSIONS (20), BENCH_BARE_LOOPS (20), BENCH_BARE_SEND_S (15), BENCH_BARE_ROUNDS (3),
 *   BUN=<path to a bun binary> (optional)
 * The sandbox runs at nice 19; rounds alternate the runtimes so that a change in the machine's load hits both.
 */
import { spawn } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { startSandbox } from '../test/support/processes.js'
import { BenchReport, median } from './lib/results.js'
import { setting } from './lib/settings.js'

const N = setting('BENCH_BARE_SESSIONS', 20)
const LOOPS = Math.min(N, setting('BENCH_BARE_LOOPS', 20))
const SEND_S = setting('BENCH_BARE_SEND_S', 15)
const ROUNDS = setting('BENCH_BARE_ROUNDS', 3)
const client = path.join(path.dirname(fileURLToPath(import.meta.url)), 'bare', 'client.ts')

interface Round {
  runtime: string
  pairSeconds: number
  acked: number
  failed: number
  ackedPerSecond: number
  cpuMsPerAcked: number
  p50Ms: number
  p95Ms: number
  rssMb: number
}

/** One client process on a fresh sandbox (fresh accounts: every round pairs its own phones). */
interface Runtime {
  name: string
  command: string
  args: string[]
  env?: Record<string, string>
}

async function round(runtime: Runtime): Promise<Round> {
  const sandbox = await startSandbox(undefined, undefined, { nice: 19 })
  try {
    const child = spawn(runtime.command, [...runtime.args, client], {
      env: {
        ...process.env,
        ...runtime.env,
        SANDBOX_URL: sandbox.url,
        N: String(N),
        LOOPS: String(LOOPS),
        SEND_S: String(SEND_S),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    let out = ''
    child.stdout.on('data', (d: Buffer) => (out += d))
    const code = await new Promise<number | null>(resolve => child.on('close', resolve))
    const line = out.trim().split('\n').pop() ?? ''
    if (code !== 0 || !line.startsWith('{')) throw new Error(`${runtime.name} client exited ${code}: ${out}`)
    return JSON.parse(line) as Round
  } finally {
    await sandbox.stop()
  }
}

const runtimes: Runtime[] = [
  { name: 'node', command: process.execPath, args: ['--no-warnings'] },
  {
    name: 'node-patched',
    command: process.execPath,
    args: ['--no-warnings', '--import', 'tsx'],
    env: { BARE_GATEWAY_PATCHES: '1' },
  },
]
if (process.env.BUN) runtimes.push({ name: 'bun', command: process.env.BUN, args: [] })
const report = new BenchReport('bare-baileys', { N, LOOPS, SEND_S, ROUNDS, runtimes: runtimes.map(r => r.name) })
const results = new Map<string, Round[]>(runtimes.map(r => [r.name, []]))
for (let r = 0; r < ROUNDS; r++)
  for (const runtime of runtimes) {
    const result = await round(runtime)
    console.log(`  round ${r + 1} ${result.runtime}: ${JSON.stringify(result)}`)
    results.get(runtime.name)!.push(result)
  }
for (const [name, rounds] of results) {
  const runtime = rounds[0]!.runtime
  const detail = `median of ${rounds.length}, ${N} sockets in one process, ${LOOPS} loops, ${SEND_S} s`
  report.add({
    figure: `${runtime}: CPU per acked text`,
    value: median(rounds.map(r => r.cpuMsPerAcked)),
    unit: 'ms',
    detail,
  })
  report.add({
    figure: `${runtime}: acked texts per second`,
    value: median(rounds.map(r => r.ackedPerSecond)),
    unit: '/s',
    detail,
  })
  report.add({ figure: `${runtime}: latency p50`, value: median(rounds.map(r => r.p50Ms)), unit: 'ms', detail })
  report.add({
    figure: `${runtime}: time to pair ${N}, 5 at a time`,
    value: median(rounds.map(r => r.pairSeconds)),
    unit: 's',
    detail,
  })
  report.add({ figure: `${runtime}: RSS after the burst`, value: median(rounds.map(r => r.rssMb)), unit: 'MB', detail })
  report.note(name, rounds)
}
report.finish()
