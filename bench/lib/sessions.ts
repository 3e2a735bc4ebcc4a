/**
 * @module bench/lib/sessions
 * Driving sessions over the gateway's HTTP API the way a client does, in steps a bench can time: create, read the
 * QR, have a sandbox phone scan it, wait until connected. `pairSessions` chains them for many sessions at once, with
 * the same shape as the perf helper's `pairFleet` (bench/lib/fleet.ts) so either can serve a bench.
 */
import { decodeQrPng } from '../../src/demo/qr-decode.js'

export interface BenchSession {
  id: string
  sessionId: string
  phone: string
}

export const headersOf = (s: { id: string; sessionId: string }) => ({ id: s.id, 'session-id': s.sessionId })

export async function poll<T>(
  what: string,
  fn: () => Promise<T | undefined>,
  intervalMs = 100,
  timeoutMs = 180_000,
): Promise<T> {
  for (const deadline = Date.now() + timeoutMs; ; ) {
    const v = await fn()
    if (v !== undefined) return v
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`)
    await new Promise(r => setTimeout(r, intervalMs))
  }
}

export async function createSession(gatewayUrl: string): Promise<{ id: string; sessionId: string }> {
  const res = await fetch(`${gatewayUrl}/session`, { method: 'POST' })
  if (res.status !== 200) throw new Error(`POST /session → ${res.status} ${await res.text()}`)
  return (await res.json()) as { id: string; sessionId: string }
}

/** GET with one retry on a network error: a pooled keep-alive socket the server closed just as it was reused (the
 * race every HTTP client has; likelier when a loaded machine runs timers late) is not what a bench measures. */
async function getWithRetry(url: string, headers: Record<string, string>): Promise<Response> {
  try {
    return await fetch(url, { headers })
  } catch {
    return await fetch(url, { headers })
  }
}

export async function readSession(gatewayUrl: string, s: { id: string; sessionId: string }) {
  const res = await getWithRetry(`${gatewayUrl}/session`, headersOf(s))
  if (res.status !== 200) throw new Error(`GET /session → ${res.status} ${await res.text()}`)
  return (await res.json()) as { qrcode: string; isConnected: boolean }
}

/** The QR PNG (base64) once GET /session shows one. */
export const waitQr = (gatewayUrl: string, s: { id: string; sessionId: string }, intervalMs = 100) =>
  poll('QR in GET /session', async () => (await readSession(gatewayUrl, s)).qrcode || undefined, intervalMs)

export async function scan(sandboxUrl: string, qrPng: string, phone: string): Promise<void> {
  const res = await fetch(`${sandboxUrl}/scan`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ qr: decodeQrPng(qrPng), phone }),
  })
  if (!res.ok) throw new Error(`scan → ${res.status} ${await res.text()}`)
}

export const waitConnected = (gatewayUrl: string, s: { id: string; sessionId: string }, intervalMs = 100) =>
  poll('isConnected', async () => (await readSession(gatewayUrl, s)).isConnected || undefined, intervalMs)

/** Runs `task(i)` for i in [0, count) with at most `concurrency` in flight; results in index order. */
export async function inBatches<T>(count: number, concurrency: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array(count)
  let next = 0
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) {
        const i = next++
        out[i] = await task(i)
      }
    }),
  )
  return out
}

/** Creates and pairs `count` sessions, `concurrency` at a time, phones phoneBase, phoneBase+1, ... */
export async function pairSessions(opts: {
  gatewayUrl: string
  sandboxUrl: string
  count: number
  concurrency?: number
  phoneBase?: number
}): Promise<BenchSession[]> {
  const { gatewayUrl, sandboxUrl, count, concurrency = 10, phoneBase = 15550300000 } = opts
  // Polling every 250 ms (a client polls every 2-3 s) keeps hundreds of pairings from flooding the gateway.
  return inBatches(count, concurrency, async i => {
    const s = await createSession(gatewayUrl)
    const phone = String(phoneBase + i)
    await scan(sandboxUrl, await waitQr(gatewayUrl, s, 250), phone)
    await waitConnected(gatewayUrl, s, 250)
    return { ...s, phone }
  })
}
