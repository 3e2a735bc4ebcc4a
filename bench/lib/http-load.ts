/**
 * @module bench/lib/http-load
 * Runs one HTTP load (autocannon) in a separate process and returns its figures. The bench process only starts
 * servers and reads results, so neither the load nor the bookkeeping steals the servers' event loop.
 */
import { spawn } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export interface LoadSpec {
  url: string
  method?: 'GET' | 'POST'
  /** Keep-alive connections, each sending its next request when the previous answer arrives. */
  connections: number
  durationSeconds: number
  /** Requests per second over all connections (open-loop probe); unset = as fast as answers come. */
  overallRate?: number
  /** Header sets used in turn, one per request (e.g. the id/session-id of many sessions). */
  headerSets?: Record<string, string>[]
  /** JSON body for POST. */
  body?: string
}

export interface LoadResult {
  requests: number
  /** 2xx answers. */
  ok: number
  /** Connection errors and timeouts. */
  errors: number
  non2xx: number
  statusCodes: Record<string, number>
  seconds: number
  /** 2xx answers per second. */
  perSecond: number
  p50Ms: number
  p90Ms: number
  p99Ms: number
  maxMs: number
}

const driver = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'drivers', 'http-load.ts')

/** `nice`: the load generator's CPU priority (19 keeps a probe from taking the cores of the server it measures). */
export async function runLoad(spec: LoadSpec, options: { nice?: number } = {}): Promise<LoadResult> {
  const args = ['--import', 'tsx', driver, JSON.stringify(spec)]
  const child =
    options.nice === undefined
      ? spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] })
      : spawn('nice', ['-n', String(options.nice), process.execPath, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  let err = ''
  child.stdout.on('data', d => {
    out += d
  })
  child.stderr.on('data', d => {
    err = (err + d).slice(-4000)
  })
  const code = await new Promise<number | null>(resolve => child.on('exit', resolve))
  const last = out.trim().split('\n').pop()
  if (code !== 0 || !last) throw new Error(`load driver failed (${code}): ${err}`)
  return JSON.parse(last) as LoadResult
}
