/**
 * Noisy neighbours: p99 latency of a quiet session's GET /session and POST /typing while 10 other sessions each
 * download and send 50 MB media, served at 4 MB/s each (a media host on the internet, not the page cache), divided by
 * the same p99 with no load, measured in one run. The sandbox and the media server run at nice 19, so the figure is
 * the gateway's own scheduling. The probes run at normal priority: they stand for a client on another machine, and
 * at nice 19 they would queue for the CPU behind the gateway's own media threads (which run at nice 19 by design,
 * MEDIA_THREAD_NICE), so they would time themselves, not the gateway. The unloaded p99 is printed beside every ratio (a ratio whose unloaded
 * side is already slow measures a busy machine, not the gateway), and so is a bare HTTP server probed the same way
 * (the machine's own floor). Each round probes
 * first with no load, then while the 10 sessions send back to back (a send ends, the next starts) until the probe
 * ends; in-flight sends finish before the next round. A first wave of 10 sends at once (warm-up) is timed, and a
 * loaded probe lasts at least that long, so it covers every stage of a send (download, encrypt, upload, ack). The probes are autocannon processes at a fixed rate; the
 * media comes from a local HTTP server in its own process (bytes generated once into a temp file).
 *
 *   npm run bench:media [-- --long]   BENCH_ROUNDS (5; long 7), BENCH_SECONDS per probe (10; 20), BENCH_MEDIA_MB (50),
 *                                     BENCH_SENDERS (10), BENCH_PROBE_RATE req/s per endpoint (20),
 *                                     BENCH_MEDIA_RATE_MB per sender and second (4; 0 = as fast as the page cache),
 *                                     BENCH_CPU_PROFILE=1 to profile the gateway (off by default: the sampler costs
 *                                     every thread it runs in, and would tilt the ratio)
 * Goal (BENCHMARKS.md): each ratio ≤ 1.5.
 */
import { fork } from 'node:child_process'
import http from 'node:http'
import { randomBytes } from 'node:crypto'
import { once } from 'node:events'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { runLoad, type LoadResult } from './lib/http-load.js'
import { ProfiledPhase } from './lib/profiled.js'
import { niceAll } from './lib/proc.js'
import { BenchReport, median } from './lib/results.js'
import { headersOf, pairSessions, type BenchSession } from './lib/sessions.js'
import { longHint, setting } from './lib/settings.js'
import { withWorld } from './lib/world.js'

const ROUNDS = setting('BENCH_ROUNDS', 5, 7)
const MEDIA_RATE_MB = setting('BENCH_MEDIA_RATE_MB', 4)
const NICE = 19
const SECONDS = setting('BENCH_SECONDS', 10, 20)
const MEDIA_MB = setting('BENCH_MEDIA_MB', 50)
const SENDERS = setting('BENCH_SENDERS', 10)
const PROBE_RATE = setting('BENCH_PROBE_RATE', 20)
const PEER = '15550000002'

const report = new BenchReport('media-load', {
  rounds: ROUNDS,
  secondsPerProbe: SECONDS,
  mediaMB: MEDIA_MB,
  senders: SENDERS,
  probeRatePerEndpoint: PROBE_RATE,
  mediaRateMBps: MEDIA_RATE_MB,
  niceOfSandboxAndMediaServer: NICE,
  probesNice: 0,
})
longHint('5 rounds of 20 s probes')

const tmp = mkdtempSync(path.join(os.tmpdir(), 'bench-media-'))
const mediaFile = path.join(tmp, 'big.bin')
for (let mb = 0; mb < MEDIA_MB; mb += 8)
  writeFileSync(mediaFile, randomBytes(Math.min(8, MEDIA_MB - mb) << 20), { flag: 'a' })
const media = fork(path.join(import.meta.dirname, 'fixtures/media-server.ts'), [], {
  execArgv: ['--import', 'tsx'],
  stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
  env: { ...process.env, MEDIA_FILE: mediaFile, MEDIA_RATE: String(MEDIA_RATE_MB * (1 << 20)) },
})
niceAll(media.pid!, NICE) // every thread: on Linux the nice value is per thread
const [{ port: mediaPort }] = (await once(media, 'message')) as [{ port: number }]

// The machine's floor: the same probe against a bare HTTP server (in this process). On an idle virtual machine a
// probe at 20 req/s already sees p99s of 6-30 ms (waking idle vCPUs), so the gateway's unloaded p99 is read beside it.
const bare = http.createServer((_req, res) => {
  res.setHeader('content-type', 'application/json')
  res.end('{}')
})
bare.listen(0, '127.0.0.1')
await once(bare, 'listening')
const bareUrl = `http://127.0.0.1:${(bare.address() as { port: number }).port}/`

const profiling = process.env.BENCH_CPU_PROFILE === '1'
const profile = new ProfiledPhase()
// The typing probe is a send: the per-session send rate must let it through (at 10/s it got 429 for half its
// requests, answered at once, which hid the latency the probe is there to measure).
const gatewayEnv = {
  MEDIA_MAX_BYTES: String((MEDIA_MB + 16) << 20),
  MEDIA_TIMEOUT_MS: '600000',
  ACK_TIMEOUT_MS: '300000',
  SEND_RATE_PER_SECOND: String(PROBE_RATE + 5),
}
try {
  await withWorld(
    'media-load',
    gatewayEnv,
    async ({ gateway, sandbox }) => {
      console.log(`pairing ${SENDERS + 1} sessions...`)
      const [quiet, ...senders] = await pairSessions({
        gatewayUrl: gateway.url,
        sandboxUrl: sandbox.url,
        count: SENDERS + 1,
      })
      const probe = (seconds: number) =>
        Promise.all([
          runLoad({
            url: `${gateway.url}/session`,
            connections: 4,
            overallRate: PROBE_RATE,
            durationSeconds: seconds,
            headerSets: [headersOf(quiet!)],
          }),
          runLoad({
            url: `${gateway.url}/typing`,
            method: 'POST',
            connections: 4,
            overallRate: PROBE_RATE,
            durationSeconds: seconds,
            headerSets: [headersOf(quiet!)],
            body: JSON.stringify({ phone: PEER }),
          }),
          runLoad({
            url: bareUrl,
            connections: 4,
            overallRate: PROBE_RATE,
            durationSeconds: seconds,
            headerSets: [{}],
          }),
        ])
      let sent = 0
      const failures: string[] = []
      const sendMedia = async (s: BenchSession, i: number) => {
        const res = await fetch(`${gateway.url}/message`, {
          method: 'POST',
          headers: { ...headersOf(s), 'content-type': 'application/json' },
          body: JSON.stringify({
            phone: PEER,
            type: 'document',
            document: {
              url: `http://127.0.0.1:${mediaPort}/big-${i}.bin`,
              name: 'big.bin',
              size: MEDIA_MB << 20,
              mimetype: 'application/octet-stream',
            },
          }),
        })
        if (res.status === 200) sent++
        else failures.push(`${res.status} ${await res.text()}`)
      }
      const waveStarted = performance.now()
      await Promise.all(senders.map((s, k) => sendMedia(s, k))) // warm-up wave: media paths, upload connections
      const waveSeconds = (performance.now() - waveStarted) / 1000
      const loadedSeconds = Math.max(SECONDS, Math.ceil(waveSeconds))
      console.log(
        `  one wave of ${SENDERS} × ${MEDIA_MB} MB sends took ${waveSeconds.toFixed(1)} s; loaded probes last ${loadedSeconds} s`,
      )
      await probe(2)
      sent = 0

      const quietRows: { get: LoadResult; typing: LoadResult; bare: LoadResult }[] = []
      const loadRows: typeof quietRows = []
      for (let round = 0; round < ROUNDS; round++) {
        const [get, typing, bareQuiet] = await probe(SECONDS)
        quietRows.push({ get, typing, bare: bareQuiet })
        let probing = true
        profile.start()
        const load = senders.map(async (s, k) => {
          for (let n = 0; probing; n++) await sendMedia(s, k * 1000 + n)
        })
        const [lg, lt, bareLoaded] = await probe(loadedSeconds)
        probing = false
        profile.end()
        loadRows.push({ get: lg, typing: lt, bare: bareLoaded })
        await Promise.all(load)
        console.log(
          `  round ${round + 1}: p99 GET /session ${get.p99Ms.toFixed(1)} → ${lg.p99Ms.toFixed(1)} ms, POST /typing ${typing.p99Ms.toFixed(1)} → ${lt.p99Ms.toFixed(1)} ms (bare server ${bareQuiet.p99Ms.toFixed(1)} → ${bareLoaded.p99Ms.toFixed(1)} ms); ${sent} media sends done so far`,
        )
      }
      const floor = `a bare HTTP server probed the same way: p99 ${median(quietRows.map(r => r.bare.p99Ms)).toFixed(1)} ms quiet, ${median(loadRows.map(r => r.bare.p99Ms)).toFixed(1)} ms loaded`
      const detail = (k: 'get' | 'typing') => {
        const bad = [...quietRows, ...loadRows].reduce((n, r) => n + r[k].non2xx + r[k].errors, 0)
        return `median of ${ROUNDS} rounds, ${PROBE_RATE} req/s for ${SECONDS} s quiet, ${loadedSeconds} s loaded; p99 quiet ${median(quietRows.map(r => r[k].p99Ms)).toFixed(1)} ms, loaded ${median(loadRows.map(r => r[k].p99Ms)).toFixed(1)} ms; ${bad} probe requests failed; ${floor}`
      }
      for (const [k, name] of [
        ['get', 'GET /session'],
        ['typing', 'POST /typing'],
      ] as const) {
        const ratio = median(quietRows.map((q, i) => loadRows[i]![k].p99Ms / q[k].p99Ms))
        const failed = [...quietRows, ...loadRows].reduce((n, r) => n + r[k].non2xx + r[k].errors, 0)
        report.add({
          figure: `p99 of a quiet session's ${name}, ${SENDERS} others sending ${MEDIA_MB} MB ÷ no load`,
          value: ratio,
          unit: '×',
          goal: '≤ 1.5, 0 failed',
          met: ratio <= 1.5 && failed === 0,
          detail: detail(k),
        })
      }
      report.add({
        figure: `one wave of ${SENDERS} × ${MEDIA_MB} MB sends at once, POST → ack`,
        value: waveSeconds,
        unit: 's',
      })
      report.add({
        figure: `${MEDIA_MB} MB media sends acknowledged (loaded phases)`,
        value: sent,
        unit: 'sends',
        detail: `${failures.length} failed${failures.length ? `: ${[...new Set(failures)].slice(0, 3).join('; ')}` : ''}`,
      })
      await gateway.stop() // profiles are written as the process and its worker threads exit
    },
    profiling ? profile.nodeArgs : [],
    undefined,
    { sandboxNice: NICE },
  )
  if (profiling) {
    const { summary, digest } = profile.summarise('of the gateway during the loaded phases')
    report.add({
      figure: `share of the gateway's CPU under media load in ${summary.byCaller[0]?.name ?? '?'}`,
      value: (summary.byCaller[0]?.share ?? 0) * 100,
      unit: '%',
      detail: digest,
    })
    report.note('cpuProfile', summary)
  }
} finally {
  media.kill('SIGTERM')
  bare.close()
  rmSync(tmp, { recursive: true, force: true })
}
report.finish()
