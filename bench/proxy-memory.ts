/**
 * Per-session memory of a session behind a proxy beside a direct one: each round starts a fresh gateway
 * (SHARDS=1, so every session shares the one shard thread) on a fresh sandbox, pairs WARM sessions, reads the
 * gateway's RSS, pairs N more in the round's mode, lets them settle, and reads it again: (after - before) / N. The
 * modes alternate within a run (direct, SOCKS5, HTTP CONNECT, then again), so machine drift hits all three alike;
 * the figures are the medians of the rounds, with their spread. The proxies (test/support/proxies: real relays) run
 * in this process, the sandbox at nice 19: only the gateway's memory is read.
 *
 *   flock /tmp/bench.lock npm run bench:proxy-memory   (BENCH_PROXY_SESSIONS=30, BENCH_PROXY_ROUNDS=3)
 */
import { readFileSync } from 'node:fs'
import os from 'node:os'
import { HttpProxy } from '../test/support/proxies/http-proxy.js'
import { Socks5Proxy } from '../test/support/proxies/socks5-proxy.js'
import { pairOne } from './lib/fleet.js'
import { BenchReport, median } from './lib/results.js'
import { setting } from './lib/settings.js'
import { withWorld } from './lib/world.js'

const N = setting('BENCH_PROXY_SESSIONS', 30, 100)
const ROUNDS = setting('BENCH_PROXY_ROUNDS', 3, 5)
const WARM = 2
const AT_ONCE = 5
const SETTLE_MS = 5_000

const socks = await new Socks5Proxy({ username: 'bench', password: 'bench-pw' }).listen()
const http = await new HttpProxy({ username: 'bench', password: 'bench-pw' }).listen()
const MODES = { direct: undefined, socks5: socks.url(), 'http-connect': http.url() } as const
type Mode = keyof typeof MODES

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024

async function perSession(mode: Mode, round: number): Promise<number> {
  const proxy = MODES[mode]
  const create = proxy === undefined ? undefined : { proxy }
  return withWorld(
    `proxy-memory-${mode}`,
    { SHARDS: '1', SESSION_PROXY_ALLOW_PRIVATE: 'true', MAX_SESSIONS: '0', UNPAIRED_PER_CLIENT: '0' },
    async ({ gateway, sandbox }) => {
      // a distinct phone per session of the run: the sandbox of each round is fresh, but keep them apart anyway
      const phone = (i: number) => String(15550300000 + round * 1_000 + i)
      const pairBatch = async (from: number, count: number) => {
        for (let i = from; i < from + count; i += AT_ONCE)
          await Promise.all(
            Array.from({ length: Math.min(AT_ONCE, from + count - i) }, (_, k) =>
              pairOne(gateway.url, sandbox.url, phone(i + k), create),
            ),
          )
      }
      await pairBatch(0, WARM)
      await new Promise(r => setTimeout(r, SETTLE_MS))
      const before = rssMb(gateway.child.pid!)
      await pairBatch(WARM, N)
      await new Promise(r => setTimeout(r, SETTLE_MS))
      const after = rssMb(gateway.child.pid!)
      const mb = (after - before) / N
      console.log(
        `  round ${round + 1} ${mode}: ${before.toFixed(0)} → ${after.toFixed(0)} MB, ${mb.toFixed(2)} MB/session`,
      )
      return mb
    },
    [],
    undefined,
    { sandboxNice: 19 },
  )
}

const runs: Record<Mode, number[]> = { direct: [], socks5: [], 'http-connect': [] }
try {
  for (let round = 0; round < ROUNDS; round++)
    for (const mode of Object.keys(MODES) as Mode[]) runs[mode].push(await perSession(mode, round))
} finally {
  await Promise.all([socks.close(), http.close()])
}

const report = new BenchReport('proxy-memory', {
  sessions: N,
  rounds: ROUNDS,
  shards: 1,
  cores: os.availableParallelism(),
})
const spread = (xs: number[]) => `${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}`
for (const mode of Object.keys(MODES) as Mode[]) {
  report.add({
    figure: `RSS per connected session, ${mode}`,
    value: median(runs[mode]),
    unit: 'MB',
    detail: `median of ${ROUNDS} rounds of ${N} sessions (spread ${spread(runs[mode])} MB)`,
  })
}
for (const mode of ['socks5', 'http-connect'] as const) {
  const extra = runs[mode].map((v, i) => v - runs.direct[i]!)
  report.add({
    figure: `extra RSS per session behind a proxy, ${mode} − direct`,
    value: median(extra),
    unit: 'MB',
    detail: `median of the ${ROUNDS} rounds' differences (spread ${spread(extra)} MB)`,
  })
}
report.finish()
