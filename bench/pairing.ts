/**
 * Pairings per second, 10 at a time (QR scanned → connected), and where the CPU goes meanwhile. Each round first
 * creates its sessions and waits for their QRs (not timed, and fresh: a QR lives about 3 minutes), then the sandbox
 * phones scan them with 10 pairings in flight; the round's rate is pairings ÷ that phase's wall time. The gateway
 * runs under `--cpu-prof` (every worker thread writes its own profile); only the timed phases are summarised, and
 * CPU per pairing (/proc) is summed over the same phases.
 *
 *   npm run bench:pairing [-- --long]  BENCH_PAIRINGS per round (20; long 50), BENCH_ROUNDS (3), BENCH_CONCURRENCY (10)
 * Goal (BENCHMARKS.md): measured, with where the CPU goes.
 */
import { cpuSeconds } from './lib/proc.js'
import { ProfiledPhase } from './lib/profiled.js'
import { BenchReport, median } from './lib/results.js'
import { createSession, inBatches, readSession, scan, waitConnected, waitQr } from './lib/sessions.js'
import { longHint, setting } from './lib/settings.js'
import { withWorld } from './lib/world.js'

const PER_ROUND = setting('BENCH_PAIRINGS', 20, 50)
const ROUNDS = setting('BENCH_ROUNDS', 3)
const CONCURRENCY = setting('BENCH_CONCURRENCY', 10)

const report = new BenchReport('pairing', { pairingsPerRound: PER_ROUND, rounds: ROUNDS, concurrency: CONCURRENCY })
longHint('50 pairings a round')
const profile = new ProfiledPhase()
let paired = 0
await withWorld(
  'pairing',
  {},
  async ({ gateway, sandbox }) => {
    const rates: number[] = []
    const each: number[] = []
    const cpu = { gateway: 0, sandbox: 0 }
    for (let round = 0; round < ROUNDS; round++) {
      const sessions = await inBatches(PER_ROUND, 10, async () => {
        const s = await createSession(gateway.url)
        await waitQr(gateway.url, s, 250)
        return s
      })
      const cpu0 = { gateway: cpuSeconds(gateway.child.pid!), sandbox: cpuSeconds(sandbox.child.pid!) }
      profile.start()
      const started = performance.now()
      await inBatches(PER_ROUND, CONCURRENCY, async k => {
        const s = sessions[k]!
        const qr = (await readSession(gateway.url, s)).qrcode // the current QR: they rotate while waiting
        const t = performance.now()
        await scan(sandbox.url, qr, String(15550400000 + round * PER_ROUND + k))
        await waitConnected(gateway.url, s, 25)
        each.push(performance.now() - t)
        paired++
      })
      rates.push(PER_ROUND / ((performance.now() - started) / 1000))
      profile.end()
      cpu.gateway += cpuSeconds(gateway.child.pid!) - cpu0.gateway
      cpu.sandbox += cpuSeconds(sandbox.child.pid!) - cpu0.sandbox
      console.log(`  round ${round + 1}: ${rates.at(-1)!.toFixed(2)} pairings/s`)
    }
    const rate = median(rates)
    const detail = `median of ${ROUNDS} rounds of ${PER_ROUND} pairings, ${CONCURRENCY} in flight`
    report.add({
      figure: `pairings per second (QR scanned → connected), ${CONCURRENCY} at a time`,
      value: rate,
      unit: '/s',
      goal: 'measured',
      met: true,
      detail,
    })
    report.add({ figure: 'one pairing, scan → isConnected, median', value: median(each), unit: 'ms', detail })
    report.add({
      figure: 'gateway CPU per pairing (all threads)',
      value: (cpu.gateway * 1000) / paired,
      unit: 'ms',
      detail: 'from /proc utime+stime over the timed phases',
    })
    report.add({
      figure: 'sandbox CPU per pairing (the simulated phone and server)',
      value: (cpu.sandbox * 1000) / paired,
      unit: 'ms',
      detail: 'from /proc utime+stime over the timed phases',
    })
    await gateway.stop() // profiles are written as the process and its worker threads exit
  },
  profile.nodeArgs,
)
const { summary, digest } = profile.summarise('of the gateway during the pairing rounds')
const first = summary.byCaller[0]
report.add({
  figure: `share of the gateway's pairing CPU spent in ${first?.name ?? '?'} (and the built-ins it calls)`,
  value: (first?.share ?? 0) * 100,
  unit: '%',
  detail: digest,
})
report.note('cpuProfile', summary)
report.finish()
