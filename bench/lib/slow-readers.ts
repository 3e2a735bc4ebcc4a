/**
 * @module bench/lib/slow-readers
 * What bench/slow-readers.ts drives: clients that send a GET and never read a byte of the answer, a neighbour's
 * sequential GET /session with each one's latency, the gateway's RSS sampled while that runs, and its /metrics.
 */
import { readFileSync } from 'node:fs'
import net from 'node:net'
import { parseProm, sumOf } from '../../test/support/prom-text.js'

/** The process's resident memory, MB. */
export const rssMb = (pid: number): number =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024

/** Opens a connection, sends `GET path` with `headers`, and never reads: the kernel's buffers fill, then the
 * gateway's. */
export async function neverReading(url: string, path: string, headers: Record<string, string>): Promise<net.Socket> {
  const { hostname, port } = new URL(url)
  const socket = net.connect({ host: hostname, port: Number(port) })
  socket.on('error', () => {}) // cut by the gateway: what the bench measures
  await new Promise(resolve => socket.once('connect', resolve))
  socket.pause()
  const lines = Object.entries({ host: `${hostname}:${port}`, ...headers }).map(([k, v]) => `${k}: ${v}\r\n`)
  socket.write(`GET ${path} HTTP/1.1\r\n${lines.join('')}\r\n`)
  return socket
}

/** `count` sequential GET /session of one session: each one's milliseconds (and how many were not 200). */
export async function sessionLatencies(
  url: string,
  headers: Record<string, string>,
  count: number,
): Promise<{ ms: number[]; failed: number }> {
  const ms: number[] = []
  let failed = 0
  for (let i = 0; i < count; i++) {
    const started = performance.now()
    const res = await fetch(`${url}/session`, { headers })
    await res.arrayBuffer()
    ms.push(performance.now() - started)
    if (res.status !== 200) failed++
  }
  return { ms, failed }
}

/** Samples `pid`'s RSS every 200 ms until `stop` is called; returns the highest. */
export function rssPeak(pid: number): { stop(): number } {
  let peak = rssMb(pid)
  const timer = setInterval(() => {
    peak = Math.max(peak, rssMb(pid))
  }, 200)
  return {
    stop() {
      clearInterval(timer)
      return Math.max(peak, rssMb(pid))
    },
  }
}

/** One series of the gateway's /metrics, summed. */
export async function metric(url: string, name: string, labels: Record<string, string> = {}): Promise<number> {
  return sumOf(parseProm(await (await fetch(`${url}/metrics`)).text()), name, labels)
}
