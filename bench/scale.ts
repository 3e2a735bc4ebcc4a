/**
 * The big-fleet figures of issue 5, measured in one run against the sandbox (its own process):
 * sessions held, memory per idle session, idle CPU, sends/s with 50 senders, CPU per send at N ÷ at 50, idle sessions
 * lost during a send burst, and restart → all connected again.
 *
 *   npm run bench:scale      (BENCH_SCALE_SESSIONS=2000, BENCH_SCALE_SENDERS=50, BENCH_SCALE_SENDS=20 per sender)
 *
 * Load comes from this process (fetch); CPU and memory are read from the gateway process's /proc entries.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { startGateway, startSandbox, type GatewayProcess } from '../src/demo/processes.js'
import { pairFleet, sessionHeaders, type FleetSession } from './lib/fleet.js'
import { measureCpu, rssMb } from './lib/proc.js'
import { BenchReport } from './lib/results.js'

const N = Number(process.env.BENCH_SCALE_SESSIONS ?? 2000)
const SENDERS = Math.min(N, Number(process.env.BENCH_SCALE_SENDERS ?? 50))
const SENDS = Number(process.env.BENCH_SCALE_SENDS ?? 20)
const IDLE_SECONDS = Number(process.env.BENCH_SCALE_IDLE_SECONDS ?? 30)
const PAIR_CONCURRENCY = Number(process.env.BENCH_SCALE_PAIR_CONCURRENCY ?? 10)
/** Baileys closes a socket that heard nothing for keep-alive interval (30 s) + 5 s: wait that long after a burst. */
const KEEPALIVE_WINDOW_MS = 36_000
const PEER = '15550000002'

const sleep = (ms: number) => new Promise(r => setTimeout(r, ms))
const log = (msg: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${msg}`)

async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length)
  let next = 0
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, async () => {
    for (let i = next++; i < items.length; i = next++) out[i] = await fn(items[i]!)
  }))
  return out
}

async function connectedCount(gw: GatewayProcess, fleet: FleetSession[]): Promise<number> {
  const flags = await mapLimit(fleet, 16, async s => {
    const res = await fetch(`${gw.url}/session`, { headers: sessionHeaders(s) }).catch(() => undefined)
    return res?.ok ? ((await res.json()) as { isConnected: boolean }).isConnected : false
  })
  return flags.filter(Boolean).length
}

/** Every sender sends `count` texts one after another (each answered after the server ack), all senders at once. */
async function sendBurst(gw: GatewayProcess, senders: FleetSession[], count: number): Promise<{ ok: number; failed: number }> {
  let ok = 0
  let failed = 0
  await Promise.all(senders.map(async s => {
    for (let i = 0; i < count; i++) {
      const res = await fetch(`${gw.url}/message`, {
        method: 'POST', headers: { ...sessionHeaders(s), 'content-type': 'application/json' },
        body: JSON.stringify({ phone: PEER, type: 'text', text: `load ${i}` }),
      }).catch(() => undefined)
      if (res?.status === 200) ok++
      else failed++
      await res?.arrayBuffer()
    }
  }))
  return { ok, failed }
}

async function sandboxStat(url: string, name: string): Promise<number> {
  const stats = await (await fetch(`${url}/stats`)).json() as Record<string, number>
  return stats[name] ?? 0
}

const sandbox = await startSandbox()
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-scale-'))
const gatewayEnv = { SANDBOX_URL: sandbox.url, DATA_DIR: dataDir, SESSION_CREATE_PER_MINUTE: '0' }
let gateway = await startGateway(gatewayEnv)
const report = new BenchReport('scale', { sessions: N, senders: SENDERS, sendsPerSender: SENDS, idleSeconds: IDLE_SECONDS })

try {
  // 1. the senders alone: warm up, then throughput and CPU per send with SENDERS sessions connected
  log(`pairing ${SENDERS} senders`)
  const senders = await pairFleet({ gatewayUrl: gateway.url, sandboxUrl: sandbox.url, count: SENDERS, concurrency: PAIR_CONCURRENCY })
  await sendBurst(gateway, senders, 2)
  await sleep(3000)
  const rssSenders = rssMb(gateway.child.pid!)
  const few = await measureCpu(gateway.child.pid!, () => sendBurst(gateway, senders, SENDS))
  log(`${SENDERS} connected: ${few.result.ok} sends in ${few.wall.toFixed(1)} s, ${(few.cpu / few.result.ok * 1000).toFixed(1)} ms CPU each`)

  // 2. the idle fleet
  log(`pairing ${N - SENDERS} idle sessions`)
  const idle = await pairFleet({
    gatewayUrl: gateway.url, sandboxUrl: sandbox.url, count: N - SENDERS, concurrency: PAIR_CONCURRENCY,
    phoneBase: 15550200000 + SENDERS,
    onPaired: (done, count) => { if (done % 100 === 0) log(`  ${done}/${count}`) },
  })
  const fleet = [...senders, ...idle]
  await sleep(10_000) // initial syncs settle
  const held = await connectedCount(gateway, fleet)
  const rssAll = rssMb(gateway.child.pid!)
  const idleRun = await measureCpu(gateway.child.pid!, () => sleep(IDLE_SECONDS * 1000))
  const idleCores = idleRun.cpu / idleRun.wall
  log(`${held} connected, RSS ${rssAll.toFixed(0)} MB, idle CPU ${idleCores.toFixed(2)} cores`)

  // 3. the same burst with the whole fleet connected; count logged-in connections that end meanwhile
  const endedBefore = await sandboxStat(sandbox.url, 'loginsEnded')
  const many = await measureCpu(gateway.child.pid!, () => sendBurst(gateway, senders, SENDS))
  log(`${N} connected: ${many.result.ok} sends in ${many.wall.toFixed(1)} s, ${(many.cpu / many.result.ok * 1000).toFixed(1)} ms CPU each`)
  await sleep(KEEPALIVE_WINDOW_MS) // a starved keep-alive shows up to 35 s later
  const lost = (await sandboxStat(sandbox.url, 'loginsEnded')) - endedBefore
  const heldAfterBurst = await connectedCount(gateway, fleet)

  // 4. restart: every session connected again, the API answering throughout
  log('restarting the gateway')
  await gateway.stop()
  const restartAt = performance.now()
  gateway = await startGateway(gatewayEnv)
  const probe = senders[0]!
  let probeFailures = 0
  let probeMaxMs = 0
  let restored = 0
  for (;;) {
    const t = performance.now()
    const res = await fetch(`${gateway.url}/session`, { headers: sessionHeaders(probe) }).catch(() => undefined)
    probeMaxMs = Math.max(probeMaxMs, performance.now() - t)
    if (!res?.ok) probeFailures++
    restored = await connectedCount(gateway, fleet)
    if (restored === N || performance.now() - restartAt > 300_000) break
    await sleep(1000)
  }
  const restartSeconds = (performance.now() - restartAt) / 1000
  log(`restart: ${restored}/${N} connected after ${restartSeconds.toFixed(1)} s`)

  const perSendFew = few.cpu / few.result.ok
  const perSendMany = many.cpu / many.result.ok
  const idlePerSend = idleCores * many.wall / many.result.ok // the keep-alive share of the burst's CPU
  report.add({ figure: 'connected, idle sessions held by one gateway process', value: held, unit: 'sessions', goal: '2,000', met: held >= 2000, detail: `${heldAfterBurst} still connected after the send burst` })
  const perSession = (rssAll - rssSenders) / (N - SENDERS)
  report.add({ figure: 'gateway memory per connected idle session', value: perSession, unit: 'MB', goal: '≤ 3 MB', met: perSession <= 3, detail: `RSS ${rssSenders.toFixed(0)} MB with ${SENDERS} → ${rssAll.toFixed(0)} MB with ${N}` })
  report.add({ figure: `CPU of the idle gateway holding ${N} connected sessions`, value: idleCores, unit: 'cores', goal: '≤ 0.5', met: idleCores <= 0.5, detail: `${IDLE_SECONDS} s of keep-alives only` })
  const rate = few.result.ok / few.wall
  report.add({ figure: `text sends per second, ${SENDERS} sessions sending at once`, value: rate, unit: 'sends/s', goal: '≥ 130', met: rate >= 130, detail: `${SENDERS} connected; ${(many.result.ok / many.wall).toFixed(0)} sends/s with ${N} connected; failed ${few.result.failed + many.result.failed}` })
  const ratio = perSendMany / perSendFew
  report.add({ figure: `CPU per send with ${N} connected ÷ with ${SENDERS} connected`, value: ratio, unit: 'ratio', goal: '≤ 1.5', met: ratio <= 1.5, detail: `${(perSendFew * 1000).toFixed(1)} → ${(perSendMany * 1000).toFixed(1)} ms per send; ${((perSendMany - idlePerSend) / perSendFew).toFixed(2)} without the idle fleet's keep-alive CPU` })
  report.add({ figure: `gateway restart with ${N} connected → all connected again`, value: restartSeconds, unit: 's', goal: '≤ 60 s', met: restored === N && restartSeconds <= 60, detail: `${restored}/${N} connected; probe GET /session: ${probeFailures} failed, slowest ${probeMaxMs.toFixed(0)} ms` })
  report.add({ figure: `sessions that lose their connection while ${SENDERS} others send, ${N} connected`, value: lost, unit: 'sessions', goal: '0', met: lost === 0, detail: `logged-in connections the sandbox saw end during the burst and ${KEEPALIVE_WINDOW_MS / 1000} s after` })
  report.finish()
} catch (err) {
  console.error(gateway.output().slice(-6000))
  throw err
} finally {
  await gateway.stop()
  await sandbox.stop()
  rmSync(dataDir, { recursive: true, force: true })
}
