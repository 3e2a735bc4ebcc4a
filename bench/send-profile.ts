/**
 * Where a send's CPU goes, thread by thread: the gateway as an operator runs it (`node dist/main.js`) with
 * V8's sampler on every thread (`--cpu-prof`), N sessions paired, then the send burst of `bench:bare` (LOOPS loops
 * to LOOPS contacts, paced at RATE texts a second, driven by `bench/bare/client.ts` at nice 19). For each thread
 * (the HTTP thread, each shard thread) it prints the busy time per acknowledged text and the largest shares by
 * package and by function (self time), counting only the samples inside the burst. The sampler costs CPU itself,
 * so read shares and per-thread splits here, and CPU per message from `bench:bare` (no profiler).
 *
 *   npm run bench:send-profile   BENCH_PROFILE_SESSIONS (20), BENCH_PROFILE_LOOPS (20), BENCH_PROFILE_SEND_S (15),
 *   BENCH_PROFILE_RATE (250), BENCH_PROFILE_TOP (15), BENCH_PROFILE_ENV ('{"SETTING":"value"}': extra gateway env),
 *   BENCH_PROFILE_KEEP=1 (keep the `.cpuprofile` files, for DevTools or a closer look; the folder is printed)
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { startSandbox } from '../test/support/processes.js'
import { type BareRound, runBareClient } from './lib/bare-client.js'
import { buildDist, startBuiltGateway } from './lib/built-gateway.js'
import { type CpuProfile, formatShares, summariseProfiles } from './lib/cpu-profile.js'
import { BenchReport } from './lib/results.js'
import { setting } from './lib/settings.js'

const N = setting('BENCH_PROFILE_SESSIONS', 20)
const LOOPS = Math.min(N, setting('BENCH_PROFILE_LOOPS', 20))
const SEND_S = setting('BENCH_PROFILE_SEND_S', 15)
const RATE = setting('BENCH_PROFILE_RATE', 250)
const TOP = setting('BENCH_PROFILE_TOP', 15)
const root = path.resolve(import.meta.dirname, '..')

buildDist(root)
const profiles = mkdtempSync(path.join(os.tmpdir(), 'bench-send-profile-'))
const sandbox = await startSandbox(undefined, undefined, { nice: 19 })
const extraEnv = JSON.parse(process.env.BENCH_PROFILE_ENV ?? '{}') as Record<string, string>
const gateway = await startBuiltGateway(sandbox.url, root, extraEnv, ['--cpu-prof', `--cpu-prof-dir=${profiles}`])
let result: BareRound
try {
  result = await runBareClient('nice', ['-n', '19', process.execPath, '--no-warnings', '--import', 'tsx'], {
    TARGET: 'gateway',
    GATEWAY_URL: gateway.url,
    GATEWAY_PID: String(gateway.pid),
    SANDBOX_URL: sandbox.url,
    N: String(N),
    LOOPS: String(LOOPS),
    SEND_S: String(SEND_S),
    RATE: String(RATE),
  })
  console.log(`  ${JSON.stringify(result)}`)
} finally {
  await gateway.stop()
  await sandbox.stop()
}

const report = new BenchReport('send-profile', { N, LOOPS, SEND_S, RATE, extraEnv })
const windows = [{ fromUs: result.burstUs[0], toUs: result.burstUs[1] }]
// CPU.<date>.<time>.<pid>.<thread id>.<seq>.cpuprofile: thread 0 is the HTTP thread, the others the shards
const files = readdirSync(profiles).filter(f => f.endsWith('.cpuprofile'))
for (const file of files.sort()) {
  const thread = Number(file.split('.').at(-3))
  const profile = JSON.parse(readFileSync(path.join(profiles, file), 'utf8')) as CpuProfile
  const summary = summariseProfiles([profile], { root, windows, top: TOP })
  if (summary.busyMs < 1) continue
  const name = thread === 0 ? 'HTTP thread' : `shard thread ${thread}`
  const perText = summary.busyMs / result.acked
  console.log(`\n${name}: ${perText.toFixed(3)} ms busy per acknowledged text (sampled)`)
  console.log(formatShares('by package (self):', summary.byPackage))
  console.log(formatShares('by calling package:', summary.byCaller))
  console.log(formatShares('by function (self):', summary.byFunction))
  report.add({ figure: `${name}: busy per acknowledged text`, value: perText, unit: 'ms', detail: 'sampled' })
  report.note(name, summary)
}
if (process.env.BENCH_PROFILE_KEEP === '1') console.log(`\nprofiles kept in ${profiles}`)
else rmSync(profiles, { recursive: true, force: true })
report.add({
  figure: 'gateway CPU per acknowledged text, profiler on',
  value: result.cpuMsPerAcked,
  unit: 'ms',
  detail: `${result.acked} acknowledged at ${result.ackedPerSecond}/s, offered ${RATE}/s`,
})
report.finish()
