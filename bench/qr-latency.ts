/**
 * POST /session → a QR in GET /session: how long a new client waits before it can show a QR, for N sessions created
 * one after another on one gateway (each stays open, waiting to be scanned, as a real client's would). Polled every
 * 20 ms (a client polls every 2-3 s) so the figure is the gateway's, not the poll interval's. The gateway's and the
 * sandbox's CPU per session come from /proc, and a gateway CPU profile of the measured phase shows where it goes.
 *
 *   npm run bench:qr                 BENCH_SESSIONS (100)
 * Goal (BENCHMARKS.md): median ≤ 300 ms over 100 sessions.
 */
import { cpuSeconds } from './lib/proc.js'
import { ProfiledPhase } from './lib/profiled.js'
import { BenchReport, median, percentile } from './lib/results.js'
import { createSession, waitQr } from './lib/sessions.js'
import { setting } from './lib/settings.js'
import { withWorld } from './lib/world.js'

const SESSIONS = setting('BENCH_SESSIONS', 100)
const POLL_MS = 20

const report = new BenchReport('qr-latency', { sessions: SESSIONS, pollMs: POLL_MS })
const profile = new ProfiledPhase()
await withWorld(
  'qr-latency',
  {},
  async ({ gateway, sandbox }) => {
    await waitQr(gateway.url, await createSession(gateway.url), POLL_MS) // warm-up: the shards load Baileys
    const cpu0 = { gateway: cpuSeconds(gateway.child.pid!), sandbox: cpuSeconds(sandbox.child.pid!) }
    profile.start()
    const times: number[] = []
    for (let i = 0; i < SESSIONS; i++) {
      const t0 = performance.now()
      await waitQr(gateway.url, await createSession(gateway.url), POLL_MS)
      times.push(performance.now() - t0)
    }
    profile.end()
    const cpuMs = {
      gateway: ((cpuSeconds(gateway.child.pid!) - cpu0.gateway) * 1000) / SESSIONS,
      sandbox: ((cpuSeconds(sandbox.child.pid!) - cpu0.sandbox) * 1000) / SESSIONS,
    }
    const detail = `${SESSIONS} sessions created one after another, all left waiting for a scan; poll every ${POLL_MS} ms`
    const med = median(times)
    report.add({
      figure: `POST /session → QR in GET /session, median of ${SESSIONS}`,
      value: med,
      unit: 'ms',
      goal: '≤ 300 ms',
      met: med <= 300,
      detail,
    })
    report.add({ figure: 'same, p90', value: percentile(times, 0.9), unit: 'ms', detail })
    report.add({ figure: 'same, slowest', value: Math.max(...times), unit: 'ms', detail })
    report.add({
      figure: 'gateway CPU per new session up to its QR (all threads)',
      value: cpuMs.gateway,
      unit: 'ms',
      detail: 'from /proc utime+stime',
    })
    report.add({
      figure: 'sandbox CPU per new session up to its QR',
      value: cpuMs.sandbox,
      unit: 'ms',
      detail: 'from /proc utime+stime',
    })
    await gateway.stop() // profiles are written as the process and its worker threads exit
  },
  profile.nodeArgs,
)
const { summary, digest } = profile.summarise('of the gateway while creating sessions up to their QR')
report.add({
  figure: `share of that CPU in ${summary.byCaller[0]?.name ?? '?'} (and the built-ins it calls)`,
  value: (summary.byCaller[0]?.share ?? 0) * 100,
  unit: '%',
  detail: digest,
})
report.note('cpuProfile', summary)
report.finish()
