/**
 * Many sessions on one gateway: memory per connected session, and what N connected sessions do to one tenant's
 * send latency (a text to a phone, answered after the server ack), measured in one run against the sandbox.
 *
 *   npm run bench:sessions            (BENCH_SESSIONS=100, BENCH_SENDS=30 by default)
 */
import { readFileSync, mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { startGateway, startSandbox } from '../test/support/processes.js'
import { pairOne } from './lib/fleet.js'

const N = Number(process.env.BENCH_SESSIONS ?? 100)
const SENDS = Number(process.env.BENCH_SENDS ?? 30)
const PEER = '15550000002'

const sandbox = await startSandbox()
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-sessions-'))
const gateway = await startGateway({
  SANDBOX_URL: sandbox.url,
  DATA_DIR: dataDir,
  MEDIA_ALLOW_PRIVATE_URLS: 'true',
  SESSION_CREATE_PER_MINUTE: '0',
  // the bench measures the gateway, not its limits
  SEND_RATE_PER_SECOND: '0',
  MAX_SESSIONS: '0',
})
const rssMb = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${gateway.child.pid}/status`, 'utf8'))![1]) / 1024

type S = { id: string; sessionId: string }
const h = (s: S) => ({ id: s.id, 'session-id': s.sessionId })
const pair = (i: number): Promise<S> => pairOne(gateway.url, sandbox.url, String(15550200000 + i))

async function sendLatencies(s: S, count: number): Promise<number[]> {
  const out: number[] = []
  for (let i = 0; i < count; i++) {
    const t = performance.now()
    const r = await fetch(`${gateway.url}/message`, {
      method: 'POST',
      headers: { ...h(s), 'content-type': 'application/json' },
      body: JSON.stringify({ phone: PEER, type: 'text', text: `ping ${i}` }),
    })
    if (r.status !== 200) throw new Error(`send: ${r.status} ${await r.text()}`)
    out.push(performance.now() - t)
  }
  return out
}
const q = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor(p * s.length))]!
}

try {
  await new Promise(r => setTimeout(r, 3000)) // worker threads load Baileys
  const rssIdle = rssMb()
  const first = await pair(0)
  await sendLatencies(first, 5) // warm-up: sessions, keys
  const alone = await sendLatencies(first, SENDS)
  const rssOne = rssMb()

  const t0 = performance.now()
  const others: S[] = []
  for (let i = 1; i < N; i += 5)
    others.push(...(await Promise.all(Array.from({ length: Math.min(5, N - i) }, (_, k) => pair(i + k)))))
  const pairSeconds = (performance.now() - t0) / 1000
  await new Promise(r => setTimeout(r, 5000)) // let initial syncs settle
  const rssAll = rssMb()
  const crowded = await sendLatencies(first, SENDS)

  // every session sends one message at once: what a burst across tenants costs
  const tb = performance.now()
  const burst = await Promise.all(
    [first, ...others].map(async s => {
      const t = performance.now()
      await sendLatencies(s, 1)
      return performance.now() - t
    }),
  )
  const burstSeconds = (performance.now() - tb) / 1000

  const ms = (x: number) => `${x.toFixed(0)} ms`
  console.log(`${N} sessions on one gateway (SHARDS=2), sandbox on loopback, ${os.availableParallelism()} cores`)
  console.log(
    `gateway RSS: ${rssIdle.toFixed(0)} MB idle, ${rssOne.toFixed(0)} MB with 1 session, ${rssAll.toFixed(0)} MB with ${N}` +
      ` → ${((rssAll - rssOne) / (N - 1)).toFixed(1)} MB per extra connected session`,
  )
  console.log(`paired ${N - 1} more sessions in ${pairSeconds.toFixed(1)} s (5 at a time)`)
  console.log(
    `one tenant's text send, alone:         p50 ${ms(q(alone, 0.5))}  p90 ${ms(q(alone, 0.9))}  max ${ms(Math.max(...alone))}`,
  )
  console.log(
    `same, with ${N - 1} other sessions connected: p50 ${ms(q(crowded, 0.5))}  p90 ${ms(q(crowded, 0.9))}  max ${ms(Math.max(...crowded))}`,
  )
  console.log(`ratio crowded / alone (p50): ${(q(crowded, 0.5) / q(alone, 0.5)).toFixed(2)}`)
  console.log(
    `burst: all ${N} sessions send at once: done in ${burstSeconds.toFixed(1)} s, per-request p50 ${ms(q(burst, 0.5))} p90 ${ms(q(burst, 0.9))}`,
  )
} catch (err) {
  console.error(gateway.output().slice(-6000))
  throw err
} finally {
  await gateway.stop()
  await sandbox.stop()
  rmSync(dataDir, { recursive: true, force: true })
}
