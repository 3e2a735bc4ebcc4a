/**
 * Pairing latency through the real gateway and the sandbox: time from POST /session to the first QR in
 * GET /session, and from POST /scan to isConnected, median (and spread) of N sessions.
 *
 *   npm run bench:pairing             (BENCH_SESSIONS=20 by default)
 */
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { decodeQrPng } from '../src/demo/qr-decode.js'
import { startGateway, startSandbox } from '../src/demo/processes.js'

const N = Number(process.env.BENCH_SESSIONS ?? 20)
const POLL_MS = 20 // finer than a client's 2-3 s, so the figure is the gateway's, not the poll interval's

const sandbox = await startSandbox()
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-pairing-'))
const gateway = await startGateway({ SANDBOX_URL: sandbox.url, DATA_DIR: dataDir, MEDIA_ALLOW_PRIVATE_URLS: 'true', SESSION_CREATE_PER_MINUTE: '0' })

const poll = async <T>(what: string, fn: () => Promise<T | undefined>) => {
  for (const deadline = Date.now() + 60_000; ;) {
    const v = await fn()
    if (v !== undefined) return v
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`)
    await new Promise(r => setTimeout(r, POLL_MS))
  }
}

const toQr: number[] = []
const toConnected: number[] = []
try {
  for (let i = 0; i < N; i++) {
    const t0 = performance.now()
    const s = await (await fetch(`${gateway.url}/session`, { method: 'POST' })).json() as { id: string; sessionId: string }
    const headers = { id: s.id, 'session-id': s.sessionId }
    const get = async () => (await fetch(`${gateway.url}/session`, { headers })).json() as Promise<{ qrcode: string; isConnected: boolean }>
    const png = await poll('QR', async () => (await get()).qrcode || undefined)
    toQr.push(performance.now() - t0)
    const qr = decodeQrPng(png)
    const t1 = performance.now()
    const scan = await fetch(`${sandbox.url}/scan`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ qr, phone: String(15550100000 + i) }),
    })
    if (!scan.ok) throw new Error(`scan failed: ${await scan.text()}`)
    await poll('connected', async () => (await get()).isConnected || undefined)
    toConnected.push(performance.now() - t1)
  }
  const stats = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b)
    const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))]!
    return `median ${q(0.5).toFixed(0)} ms   min ${s[0]!.toFixed(0)} ms   p90 ${q(0.9).toFixed(0)} ms   max ${s[s.length - 1]!.toFixed(0)} ms`
  }
  console.log(`pairing through gateway + sandbox, ${N} sessions one after another, ${os.availableParallelism()} cores`)
  console.log(`POST /session → QR in GET /session   ${stats(toQr)}`)
  console.log(`POST /scan → isConnected              ${stats(toConnected)}`)
} finally {
  await gateway.stop()
  await sandbox.stop()
  rmSync(dataDir, { recursive: true, force: true })
}

