/**
 * @module bench/lib/fleet
 * A fleet of paired sessions for the bench scripts: creates N sessions through the gateway's API and has the
 * sandbox's simulated phones scan their QR codes, a bounded number at a time (pairing costs ~0.5 s of CPU each in
 * Baileys: 811 prekeys generated and uploaded), and waits until every one shows connected.
 *
 * @example
 * const fleet = await pairFleet({ gatewayUrl: gateway.url, sandboxUrl: sandbox.url, count: 100, concurrency: 10 })
 * // fleet[0] = { id, sessionId, phone }: the headers every call takes, and the phone number it paired to
 */
import { decodeQrPng } from '../../src/demo/qr-decode.js'

export interface FleetSession {
  id: string
  sessionId: string
  /** The phone number (digits) the session is paired to. */
  phone: string
}

export interface FleetOptions {
  gatewayUrl: string
  sandboxUrl: string
  count: number
  /** Pairings in flight at once (default 10). */
  concurrency?: number
  /** Session i pairs to phone `phoneBase + i` (default 15550200000). */
  phoneBase?: number
  /** Called after each session connects (progress output of long runs). */
  onPaired?: (done: number, count: number) => void
}

const POLL_MS = 150
const PAIR_TIMEOUT_MS = 180_000
/** A pairing that fails (a QR connection that timed out on a busy machine) is tried again with a new session. */
const PAIR_ATTEMPTS = 3

export const sessionHeaders = (s: { id: string; sessionId: string }): Record<string, string> => ({
  id: s.id,
  'session-id': s.sessionId,
})

interface SessionView {
  qrcode: string
  isConnected: boolean
}

async function getSession(gatewayUrl: string, s: { id: string; sessionId: string }): Promise<SessionView> {
  const res = await fetch(`${gatewayUrl}/session`, { headers: sessionHeaders(s) })
  // cluster mode: a session between two nodes answers 503 with Retry-After for a moment
  if (res.status === 503) return { qrcode: '', isConnected: false }
  if (!res.ok) throw new Error(`GET /session: ${res.status} ${await res.text()}`)
  return (await res.json()) as SessionView
}

async function poll<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs = PAIR_TIMEOUT_MS): Promise<T> {
  for (const end = Date.now() + timeoutMs; ; ) {
    const value = await fn()
    if (value !== undefined) return value
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise(r => setTimeout(r, POLL_MS))
  }
}

/**
 * Creates one session, scans its QR with `phone`, and waits until it is connected. `create` is POST /session's
 * optional body (e.g. `{ proxy }`).
 */
export async function pairOne(
  gatewayUrl: string,
  sandboxUrl: string,
  phone: string,
  create?: object,
): Promise<FleetSession> {
  const created = await fetch(
    `${gatewayUrl}/session`,
    create === undefined
      ? { method: 'POST' }
      : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(create) },
  )
  if (!created.ok) throw new Error(`POST /session: ${created.status} ${await created.text()}`)
  const s = (await created.json()) as { id: string; sessionId: string }
  const png = await poll(`QR of ${s.id}`, async () => (await getSession(gatewayUrl, s)).qrcode || undefined)
  const scan = await fetch(`${sandboxUrl}/scan`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ qr: decodeQrPng(png), phone }),
  })
  if (!scan.ok) throw new Error(`scan: ${scan.status} ${await scan.text()}`)
  await poll(`${s.id} connected`, async () => (await getSession(gatewayUrl, s)).isConnected || undefined)
  return { id: s.id, sessionId: s.sessionId, phone }
}

/** Pairs `count` sessions, `concurrency` at a time; resolves in index order once all are connected. */
export async function pairFleet(opts: FleetOptions): Promise<FleetSession[]> {
  const { gatewayUrl, sandboxUrl, count } = opts
  const concurrency = Math.max(1, opts.concurrency ?? 10)
  const phoneBase = opts.phoneBase ?? 15550200000
  const out = new Array<FleetSession>(count)
  let next = 0
  let done = 0
  const lane = async (): Promise<void> => {
    for (let i = next++; i < count; i = next++) {
      for (let attempt = 1; ; attempt++) {
        try {
          out[i] = await pairOne(gatewayUrl, sandboxUrl, String(phoneBase + i))
          break
        } catch (err) {
          // the failed session is left unpaired: the gateway deletes it when its QR lifetime ends
          if (attempt >= PAIR_ATTEMPTS) throw err
        }
      }
      opts.onPaired?.(++done, count)
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, lane))
  return out
}
