/**
 * A small closed-loop HTTP load generator: `connections` keep-alive clients each send the next request as soon as
 * the previous answer arrives, for `durationMs`. Runs in the bench process; the servers under test run in child
 * processes so they do not share this event loop.
 */
import http from 'node:http'

export interface LoadResult { requests: number; errors: number; seconds: number; perSecond: number; p50Ms: number; p99Ms: number }

export async function load(url: string, headers: Record<string, string>, connections: number, durationMs: number): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections })
  const target = new URL(url)
  const latencies: number[] = []
  let errors = 0
  const end = Date.now() + durationMs
  const started = Date.now()
  const one = () => new Promise<void>(resolve => {
    const t0 = process.hrtime.bigint()
    const req = http.request({ agent, host: target.hostname, port: target.port, path: target.pathname, headers }, res => {
      res.resume()
      res.on('end', () => {
        if (res.statusCode !== 200) errors++
        latencies.push(Number(process.hrtime.bigint() - t0) / 1e6)
        resolve()
      })
    })
    req.on('error', () => { errors++; resolve() })
    req.end()
  })
  await Promise.all(Array.from({ length: connections }, async () => { while (Date.now() < end) await one() }))
  agent.destroy()
  const seconds = (Date.now() - started) / 1000
  latencies.sort((a, b) => a - b)
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? 0
  return { requests: latencies.length, errors, seconds, perSecond: latencies.length / seconds, p50Ms: pct(0.5), p99Ms: pct(0.99) }
}
