/**
 * @module bench/drivers/http-load
 * The load generator, run as its own process so it never shares an event loop with the servers under test:
 * autocannon with one spec (JSON in argv[2]), raw per-response latencies kept so percentiles below a millisecond
 * are exact (autocannon's own histogram rounds to whole milliseconds). Prints one JSON `LoadResult` line on stdout.
 */
import autocannon from 'autocannon'
import type { LoadResult, LoadSpec } from '../lib/http-load.js'
import { percentile } from '../lib/results.js'

const spec = JSON.parse(process.argv[2] ?? '{}') as LoadSpec
const headerSets = spec.headerSets?.length ? spec.headerSets : [{}]
let next = 0

const latencies: number[] = []
const statusCodes: Record<string, number> = {}
const instance = autocannon(
  {
    url: spec.url,
    connections: spec.connections,
    duration: spec.durationSeconds,
    ...(spec.overallRate ? { overallRate: spec.overallRate } : {}),
    timeout: 30,
    requests: [
      {
        method: spec.method ?? 'GET',
        ...(spec.body === undefined ? {} : { body: spec.body }),
        // Rotating the headers costs the loader the same on every target, so a ratio between targets stays fair.
        setupRequest: req => {
          const set = headerSets[next++ % headerSets.length]!
          return {
            ...req,
            headers: { ...(spec.body === undefined ? {} : { 'content-type': 'application/json' }), ...set },
          }
        },
      },
    ],
  },
  (err, r) => {
    if (err) throw err
    const ok = latencies.length - r.non2xx
    const result: LoadResult = {
      requests: latencies.length,
      ok,
      errors: r.errors,
      non2xx: r.non2xx,
      statusCodes,
      seconds: r.duration,
      perSecond: ok / r.duration,
      p50Ms: percentile(latencies, 0.5),
      p90Ms: percentile(latencies, 0.9),
      p99Ms: percentile(latencies, 0.99),
      maxMs: latencies.reduce((m, x) => Math.max(m, x), 0),
    }
    process.stdout.write(`${JSON.stringify(result)}\n`)
  },
)
instance.on('response', (_client, statusCode, _bytes, responseTime) => {
  statusCodes[statusCode] = (statusCodes[statusCode] ?? 0) + 1
  latencies.push(responseTime)
})
