/**
 * POST /session → a QR in GET /session: how long a new client waits before it can show a QR, for N sessions created
 * one after another on one gateway (each stays open, waiting to be scanned, as a real client's would). Polled every
 * 20 ms (a client polls every 2-3 s) so the figure is the gateway's, not the poll interval's.
 *
 *   npm run bench:qr                 BENCH_SESSIONS (100)
 * Goal (issue 5): median ≤ 300 ms over 100 sessions.
 */
import { BenchReport, median, percentile } from './lib/results.js'
import { createSession, waitQr } from './lib/sessions.js'
import { setting } from './lib/settings.js'
import { withWorld } from './lib/world.js'

const SESSIONS = setting('BENCH_SESSIONS', 100)
const POLL_MS = 20

const report = new BenchReport('qr-latency', { sessions: SESSIONS, pollMs: POLL_MS })
await withWorld('qr-latency', {}, async ({ gateway }) => {
  await waitQr(gateway.url, await createSession(gateway.url), POLL_MS) // warm-up: the shards load Baileys
  const times: number[] = []
  for (let i = 0; i < SESSIONS; i++) {
    const t0 = performance.now()
    await waitQr(gateway.url, await createSession(gateway.url), POLL_MS)
    times.push(performance.now() - t0)
  }
  const detail = `${SESSIONS} sessions created one after another, all left waiting for a scan; poll every ${POLL_MS} ms`
  const med = median(times)
  report.add({ figure: `POST /session → QR in GET /session, median of ${SESSIONS}`, value: med, unit: 'ms', goal: '≤ 300 ms', met: med <= 300, detail })
  report.add({ figure: 'same, p90', value: percentile(times, 0.9), unit: 'ms', detail })
  report.add({ figure: 'same, slowest', value: Math.max(...times), unit: 'ms', detail })
})
report.finish()
