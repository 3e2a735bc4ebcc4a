/**
 * @module bench/drivers/pair-watch
 * The client side of bench/session-wait.ts's pairing figure, in its own process (run at nice 19): pairs `count`
 * sessions, `concurrency` at a time, the way a client does (POST /session, read the QR off GET /session, a sandbox
 * phone scans it, read GET /session until connected), watching GET /session in one of two ways:
 *   - `poll`: every `pollMs`;
 *   - `wait`: the first read plain, then `If-None-Match` with the last ETag and `?wait=25` (200 on a change, 304
 *     at the end of a wait, asked again at once).
 * Prints one JSON line: the wall time of the whole run, each pairing's time (POST /session → connected), the
 * GET /session requests made, and the attempts that failed and were made again with a new session.
 *
 *   node --import tsx bench/drivers/pair-watch.ts '{"gatewayUrl":…,"sandboxUrl":…,"count":50,"concurrency":5,"mode":"wait"}'
 */
import http from 'node:http'
import { decodeQrPng } from '../../src/demo/qr-decode.js'

interface Spec {
  gatewayUrl: string
  sandboxUrl: string
  count: number
  concurrency: number
  mode: 'poll' | 'wait'
  pollMs?: number
  phoneBase?: number
}

const spec = JSON.parse(process.argv[2] ?? '{}') as Spec
const POLL_MS = spec.pollMs ?? 150
const WAIT_S = 25
const PAIR_TIMEOUT_MS = 180_000
const ATTEMPTS = 3

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 })
let gets = 0

interface Answer {
  status: number
  etag: string | undefined
  text: string
}

function request(method: string, url: string, headers: Record<string, string> = {}, body?: object): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : Buffer.from(JSON.stringify(body))
    const req = http.request(
      url,
      {
        method,
        agent,
        headers: { ...headers, ...(data ? { 'content-type': 'application/json', 'content-length': data.length } : {}) },
      },
      res => {
        const chunks: Buffer[] = []
        res.on('data', c => chunks.push(c))
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            etag: res.headers.etag,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        )
        res.on('error', reject)
      },
    )
    req.setTimeout(60_000, () => req.destroy(new Error('no answer in 60 s')))
    req.on('error', reject)
    req.end(data)
  })
}

const sleep = (ms: number) => new Promise(resolve => setTimeout(resolve, ms))

interface SessionView {
  qrcode: string
  isConnected: boolean
}

/** Reads GET /session (polling or waiting) until `pick` gives a value. */
async function watch<T>(s: { id: string; sessionId: string }, pick: (v: SessionView) => T | undefined): Promise<T> {
  const auth = { id: s.id, 'session-id': s.sessionId }
  let etag: string | undefined
  let last: SessionView | undefined
  for (const end = Date.now() + PAIR_TIMEOUT_MS; Date.now() < end; ) {
    const waiting = spec.mode === 'wait' && etag !== undefined
    gets++
    const r = await request(
      'GET',
      `${spec.gatewayUrl}/session${waiting ? `?wait=${WAIT_S}` : ''}`,
      waiting ? { ...auth, 'if-none-match': etag! } : auth,
    )
    if (r.status === 200) {
      last = JSON.parse(r.text) as SessionView
      etag = r.etag
    } else if (r.status !== 304) throw new Error(`GET /session: ${r.status} ${r.text.slice(0, 200)}`)
    const value = last && pick(last)
    if (value !== undefined) return value
    if (spec.mode === 'poll') await sleep(POLL_MS)
  }
  throw new Error('timed out watching GET /session')
}

async function pairOne(phone: string): Promise<number> {
  const started = performance.now()
  const created = await request('POST', `${spec.gatewayUrl}/session`)
  if (created.status !== 200) throw new Error(`POST /session: ${created.status} ${created.text}`)
  const s = JSON.parse(created.text) as { id: string; sessionId: string }
  const png = await watch(s, v => v.qrcode || undefined)
  const scan = await request('POST', `${spec.sandboxUrl}/scan`, {}, { qr: decodeQrPng(png), phone })
  if (scan.status !== 200) throw new Error(`scan: ${scan.status} ${scan.text}`)
  await watch(s, v => v.isConnected || undefined)
  return performance.now() - started
}

const each: number[] = []
let failed = 0
let next = 0
const base = spec.phoneBase ?? 15550500000
const t0 = performance.now()
await Promise.all(
  Array.from({ length: Math.min(spec.concurrency, spec.count) }, async () => {
    for (let i = next++; i < spec.count; i = next++) {
      for (let attempt = 1; ; attempt++) {
        try {
          each.push(await pairOne(String(base + i)))
          break
        } catch (err) {
          failed++
          if (attempt >= ATTEMPTS) throw err
        }
      }
    }
  }),
)
const seconds = (performance.now() - t0) / 1000
console.log(JSON.stringify({ seconds, each, gets, failed }))
agent.destroy()
