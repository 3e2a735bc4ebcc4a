/**
 * GET /session that waits vs polling: time to pair N sessions by QR, CONCURRENCY at a time (POST /session → QR read
 * off GET /session → a sandbox phone scans it → GET /session shows it connected), the client watching GET /session
 * every 150 ms (`poll`) or with If-None-Match + ?wait=25 (`wait`). A fresh sandbox and gateway for every run, the two
 * modes alternating (poll, wait, poll, wait, ...); the wait ÷ poll ratio of each pair, and the spread. The client
 * runs in its own process at nice 19 (bench/drivers/pair-watch.ts), the sandbox at nice 19. What the waiting
 * requests cost is bench/session-wait-cost.ts.
 *
 *   flock /tmp/bench.lock npm run bench:session-wait [-- --long]
 *   BENCH_WAIT_PAIR_N (comma list: 50,200; long 50,200,1000), BENCH_WAIT_ROUNDS (2 pairs of runs), BENCH_WAIT_ROUNDS_BIG
 *   (1, for N ≥ 1,000), BENCH_WAIT_CONCURRENCY (5)
 */
import { niceDriver } from './lib/nice-driver.js'
import { BenchReport, median } from './lib/results.js'
import { isLong, setting } from './lib/settings.js'
import { withWorld } from './lib/world.js'

const PAIR_N = (process.env.BENCH_WAIT_PAIR_N ?? (isLong ? '50,200,1000' : '50,200')).split(',').map(Number)
const ROUNDS = setting('BENCH_WAIT_ROUNDS', 2)
const ROUNDS_BIG = setting('BENCH_WAIT_ROUNDS_BIG', 1)
const CONCURRENCY = setting('BENCH_WAIT_CONCURRENCY', 5)
/** Every run pairs fresh sessions: no POST /session or unpaired cap of the client gets in the way. */
const ENV = { LOG_LEVEL: 'warn', UNPAIRED_PER_CLIENT: '0', MAX_SESSIONS: '0' }
const WORLD = { sandboxNice: 19 }

const round = (v: number, digits = 2) => Number(v.toFixed(digits))
const spread = (xs: number[]) => `${round(Math.min(...xs))}–${round(Math.max(...xs))}`

/** What bench/drivers/pair-watch.ts prints. */
interface PairRun {
  seconds: number
  each: number[]
  gets: number
  failed: number
}

const report = new BenchReport('session-wait', {
  pairN: PAIR_N,
  rounds: ROUNDS,
  roundsBig: ROUNDS_BIG,
  concurrency: CONCURRENCY,
})

for (const n of PAIR_N) {
  const rounds = n >= 1_000 ? ROUNDS_BIG : ROUNDS
  const times: Record<'poll' | 'wait', number[]> = { poll: [], wait: [] }
  const gets: Record<'poll' | 'wait', number[]> = { poll: [], wait: [] }
  const each: Record<'poll' | 'wait', number[]> = { poll: [], wait: [] }
  for (let r = 0; r < rounds; r++) {
    for (const mode of ['poll', 'wait'] as const) {
      await withWorld(
        `session-wait-${mode}`,
        ENV,
        async ({ gateway, sandbox }) => {
          const spec = { gatewayUrl: gateway.url, sandboxUrl: sandbox.url, count: n, concurrency: CONCURRENCY, mode }
          const run = await niceDriver<PairRun>('pair-watch.ts', spec).result
          times[mode].push(run.seconds)
          gets[mode].push(run.gets)
          each[mode].push(median(run.each))
          console.log(
            `  N=${n} ${mode}: ${round(run.seconds, 1)} s, median pairing ${round(median(run.each), 0)} ms, ${run.gets} GET /session, ${run.failed} failed attempts`,
          )
        },
        [],
        undefined,
        WORLD,
      )
    }
  }
  const ratios = times.wait.map((w, i) => w / times.poll[i]!)
  report.add({
    figure: `time to pair ${n} sessions, ${CONCURRENCY} at a time: waiting GET /session ÷ polling every 150 ms`,
    value: median(ratios),
    unit: 'ratio',
    goal: '< 1',
    met: median(ratios) < 1,
    detail:
      `${rounds} pair(s) of runs, poll then wait, fresh sandbox + gateway each; ratios ${ratios.map(x => round(x, 3)).join(', ')}; ` +
      `polling ${times.poll.map(x => round(x, 1)).join(', ')} s (median pairing ${each.poll.map(x => round(x, 0)).join(', ')} ms, ${median(gets.poll)} GET /session), ` +
      `waiting ${times.wait.map(x => round(x, 1)).join(', ')} s (median pairing ${each.wait.map(x => round(x, 0)).join(', ')} ms, ${median(gets.wait)} GET /session)`,
  })
  report.add({
    figure: `time to pair ${n} sessions, polling every 150 ms`,
    value: median(times.poll),
    unit: 's',
    detail: `runs ${spread(times.poll)} s`,
  })
  report.add({
    figure: `time to pair ${n} sessions, waiting GET /session`,
    value: median(times.wait),
    unit: 's',
    detail: `runs ${spread(times.wait)} s`,
  })
}

report.finish()
