/**
 * GET /session throughput: the gateway (real process, worker threads, a connected session on the sandbox) beside a
 * bare express handler returning the same body, measured in one run on the same machine.
 *
 *   npm run bench:session            (BENCH_SECONDS=10 BENCH_CONNECTIONS=32 by default)
 */
import { fork } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { freePort, startGateway, startSandbox, waitFor } from '../src/demo/processes.js'
import { decodeQrPng } from '../src/demo/qr-decode.js'
import { load } from './load.js'

const seconds = Number(process.env.BENCH_SECONDS ?? 10)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32)
const root = path.resolve(import.meta.dirname, '..')

const sandbox = await startSandbox()
const sandboxUrl = sandbox.url

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-session-'))
const gateway = await startGateway({ SANDBOX_URL: sandboxUrl, DATA_DIR: dataDir, MEDIA_ALLOW_PRIVATE_URLS: 'true' })
try {
  const created = await (await fetch(`${gateway.url}/session`, { method: 'POST' })).json() as { id: string; sessionId: string }
  const headers = { id: created.id, 'session-id': created.sessionId }
  const get = async () => (await fetch(`${gateway.url}/session`, { headers })).json() as Promise<{ qrcode: string; isConnected: boolean }>
  const qr = await waitFor('QR', async () => (await get()).qrcode || undefined)
  const scan = await fetch(`${sandboxUrl}/scan`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ qr: decodeQrPng(qr), phone: '15550000001' }) })
  if (!scan.ok) throw new Error(`scan failed: ${await scan.text()}`)
  await waitFor('connected', async () => (await get()).isConnected || undefined)
  const body = await get()

  const barePort = await freePort()
  const bare = fork(path.join(root, 'bench/fixtures/bare-express.ts'), [], {
    execArgv: ['--import', 'tsx'], env: { ...process.env, PORT: String(barePort), BODY_JSON: JSON.stringify(body) }, stdio: 'ignore',
  })
  await once(bare, 'message')

  await load(`${gateway.url}/session`, headers, connections, 2000) // warm-up
  await load(`http://127.0.0.1:${barePort}/session`, {}, connections, 2000)
  const g = await load(`${gateway.url}/session`, headers, connections, seconds * 1000)
  const b = await load(`http://127.0.0.1:${barePort}/session`, {}, connections, seconds * 1000)
  bare.kill('SIGTERM')

  const row = (name: string, r: typeof g) =>
    `${name.padEnd(28)} ${r.perSecond.toFixed(0).padStart(8)} req/s   p50 ${r.p50Ms.toFixed(2)} ms   p99 ${r.p99Ms.toFixed(2)} ms   errors ${r.errors}`
  console.log(`GET /session, ${connections} keep-alive connections, ${seconds} s each, ${os.availableParallelism()} cores`)
  console.log(row('gateway (connected session)', g))
  console.log(row('bare express handler', b))
  console.log(`ratio gateway / bare express: ${(g.perSecond / b.perSecond).toFixed(2)}`)
} finally {
  await gateway.stop()
  await sandbox.stop()
  rmSync(dataDir, { recursive: true, force: true })
}
