/**
 * @module bench/lib/bare-client
 * Runs `bench/bare/client.ts` once (Baileys alone, or TARGET=gateway) and returns the JSON line it prints last.
 */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '..', '..')

/** What one client run measured (bench/bare/client.ts prints it). */
export interface BareRound {
  runtime: string
  pairSeconds: number
  acked: number
  failed: number
  delivered: number
  ackedPerSecond: number
  cpuMsPerAcked: number
  byThread?: Record<string, number>
  privacyTokenIssuesPerSend: number
  p50Ms: number
  p95Ms: number
  rssMb: number
  /** The burst on the monotonic clock (µs), for a CPU profile's samples. */
  burstUs: [number, number]
}

/** `command [...args] bench/bare/client.ts` with `env` on top of this process's; throws unless it printed a result. */
export async function runBareClient(command: string, args: string[], env: Record<string, string>): Promise<BareRound> {
  const child = spawn(command, [...args, path.join(root, 'bench', 'bare', 'client.ts')], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  let out = ''
  child.stdout.on('data', (d: Buffer) => (out += d))
  const [code] = (await once(child, 'close')) as [number | null]
  const line = out.trim().split('\n').pop() ?? ''
  if (code !== 0 || !line.startsWith('{')) throw new Error(`${command} client exited ${code}: ${out}`)
  return JSON.parse(line) as BareRound
}
