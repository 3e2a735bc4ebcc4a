/**
 * What the request log and the request metrics cost: CPU time of the serving process per GET /session, through the
 * full app (request log at info, which writes nothing for a successful poll; request histogram; ops routes) vs. the
 * GET /session handler alone.
 * CPU per request, not req/s: on a shared machine CPU time is the steadier measure. Modes alternate, RUNS each.
 *
 *   npm run bench:ops            (BENCH_RUNS=3 BENCH_SECONDS=5 BENCH_CONNECTIONS=16 by default)
 */
import { fork, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import path from 'node:path'
import { freePort } from '../test/support/processes.js'
import { BenchReport, median } from './lib/results.js'
import { runLoad } from './lib/http-load.js'

const runs = Number(process.env.BENCH_RUNS ?? 3)
const seconds = Number(process.env.BENCH_SECONDS ?? 5)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 16)
const headers = { id: 'bench-id', 'session-id': 'bench-secret' }

const cpuOf = async (child: ChildProcess): Promise<number> => {
  child.send('cpu')
  const [usage] = (await once(child, 'message')) as [NodeJS.CpuUsage]
  return usage.user + usage.system
}

/** CPU µs per request of one server process in `mode`. */
async function measure(mode: 'on' | 'off'): Promise<number> {
  const port = await freePort()
  const child = fork(path.join(import.meta.dirname, 'fixtures/ops-server.ts'), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, PORT: String(port), OPS: mode },
    stdio: 'ignore',
  })
  await once(child, 'message')
  const url = `http://127.0.0.1:${port}/session`
  const load = (durationSeconds: number) => runLoad({ url, connections, durationSeconds, headerSets: [headers] })
  await load(1) // warm-up (JIT)
  const before = await cpuOf(child)
  const result = await load(seconds)
  const cpu = (await cpuOf(child)) - before
  child.send('stop')
  await once(child, 'exit')
  if (result.errors + result.non2xx > 0)
    throw new Error(`${result.errors + result.non2xx} failed requests (ops ${mode})`)
  return cpu / result.requests
}

const perRequest: Record<'on' | 'off', number[]> = { on: [], off: [] }
for (let i = 0; i < runs; i++) {
  for (const mode of ['off', 'on'] as const) perRequest[mode].push(await measure(mode))
}
const on = median(perRequest.on)
const off = median(perRequest.off)
const report = new BenchReport('ops-overhead', { runs, seconds, connections })
const detail = `median of ${runs} runs, ${connections} connections, ${seconds} s each`
report.add({ figure: 'CPU per GET /session, its handler alone', value: off, unit: 'µs', detail })
report.add({ figure: 'CPU per GET /session, full app (request log at info + metrics)', value: on, unit: 'µs', detail })
report.add({ figure: 'added by request log + metrics per request', value: on - off, unit: 'µs', detail })
report.finish()
