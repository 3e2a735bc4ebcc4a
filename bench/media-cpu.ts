/**
 * Gateway CPU per MB of media sent, beside the physical cost (issue "fair share", item 1), in one run: a 50 MB
 * document sent through the gateway to a sandbox phone, against `fixtures/bare-media-pipeline.ts` doing the same
 * download, crypto and TLS upload (and receiving it) in one bare process. Both from a fast source (the page cache)
 * and from a slow one that sends 64 KiB at a time (BENCH_SLOW_MB per second). The gateway's CPU is every thread of
 * its process (/proc) from the POST to the answer; the sandbox and the media server run at nice 19.
 *
 *   npm run bench:media-cpu    BENCH_MEDIA_MB (50), BENCH_ROUNDS (3), BENCH_SLOW_MB (8)
 * Goal: ≤ 1.5 × the bare pipeline from both sources.
 */
import { execFileSync, fork } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { once } from 'node:events'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { measureCpu, niceAll } from './lib/proc.js'
import { BenchReport, median } from './lib/results.js'
import { headersOf, pairSessions } from './lib/sessions.js'
import { setting } from './lib/settings.js'
import { withWorld } from './lib/world.js'

const MEDIA_MB = setting('BENCH_MEDIA_MB', 50)
const ROUNDS = setting('BENCH_ROUNDS', 3)
const SLOW_MB = setting('BENCH_SLOW_MB', 8)
const NICE = 19
const report = new BenchReport('media-cpu', {
  mediaMB: MEDIA_MB,
  rounds: ROUNDS,
  slowSourceMBps: SLOW_MB,
  slowChunkKiB: 64,
})

const tmp = mkdtempSync(path.join(os.tmpdir(), 'bench-media-cpu-'))
const mediaFile = path.join(tmp, 'big.bin')
for (let mb = 0; mb < MEDIA_MB; mb += 8)
  writeFileSync(mediaFile, randomBytes(Math.min(8, MEDIA_MB - mb) << 20), { flag: 'a' })

async function mediaServer(rate: number) {
  const child = fork(path.join(import.meta.dirname, 'fixtures/media-server.ts'), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    env: { ...process.env, MEDIA_FILE: mediaFile, MEDIA_RATE: String(rate), MEDIA_CHUNK: String(64 * 1024) },
  })
  niceAll(child.pid!, NICE) // every thread: on Linux the nice value is per thread
  const [{ port }] = (await once(child, 'message')) as [{ port: number }]
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill('SIGTERM') }
}

const sources = { fast: await mediaServer(0), slow: await mediaServer(SLOW_MB << 20) }
try {
  const bare = (url: string) =>
    JSON.parse(
      execFileSync(
        process.execPath,
        ['--import', 'tsx', path.join(import.meta.dirname, 'fixtures/bare-media-pipeline.ts'), url],
        { encoding: 'utf8' },
      )
        .trim()
        .split('\n')
        .pop()!,
    ) as { bytes: number; cpuSeconds: number }
  await withWorld(
    'media-cpu',
    {
      MEDIA_MAX_BYTES: String((MEDIA_MB + 16) << 20),
      MEDIA_MAX_BYTES_DOCUMENT: String((MEDIA_MB + 16) << 20),
      MEDIA_TIMEOUT_MS: '600000',
      ACK_TIMEOUT_MS: '300000',
    },
    async ({ gateway, sandbox }) => {
      const [sender] = await pairSessions({ gatewayUrl: gateway.url, sandboxUrl: sandbox.url, count: 1 })
      const send = async (url: string, n: number) => {
        const res = await fetch(`${gateway.url}/message`, {
          method: 'POST',
          headers: { ...headersOf(sender!), 'content-type': 'application/json' },
          body: JSON.stringify({
            phone: '15550000002',
            type: 'document',
            document: {
              url: `${url}/f-${n}.bin`,
              name: 'big.bin',
              size: MEDIA_MB << 20,
              mimetype: 'application/octet-stream',
            },
          }),
        })
        if (res.status !== 200) throw new Error(`send → ${res.status} ${await res.text()}`)
      }
      await send(sources.fast.url, 0) // warm-up: upload connection, code paths
      for (const [name, source] of Object.entries(sources)) {
        const ratios: number[] = []
        const gw: number[] = []
        const base: number[] = []
        for (let round = 0; round < ROUNDS; round++) {
          const { cpu } = await measureCpu(gateway.child.pid!, () => send(source.url, round + 1))
          const b = bare(`${source.url}/bare-${round}.bin`)
          const gwMs = (cpu * 1000) / MEDIA_MB
          const bareMs = (b.cpuSeconds * 1000) / (b.bytes / (1 << 20))
          gw.push(gwMs)
          base.push(bareMs)
          ratios.push(gwMs / bareMs)
          console.log(
            `  ${name} source, round ${round + 1}: gateway ${gwMs.toFixed(2)} ms/MB, bare ${bareMs.toFixed(2)} ms/MB`,
          )
        }
        const ratio = median(ratios)
        report.add({
          figure: `gateway CPU per MB sent ÷ bare pipeline, ${name} source`,
          value: ratio,
          unit: '×',
          goal: '≤ 1.5',
          met: ratio <= 1.5,
          detail: `median of ${ROUNDS}; gateway ${median(gw).toFixed(2)} ms/MB, bare ${median(base).toFixed(2)} ms/MB`,
        })
      }
    },
    [],
    undefined,
    { sandboxNice: NICE },
  )
} finally {
  sources.fast.stop()
  sources.slow.stop()
  rmSync(tmp, { recursive: true, force: true })
}
report.finish()
