/**
 * The big-fleet figures of BENCHMARKS.md, measured in one run against the sandbox (its own process):
 * sessions held, memory per idle session, idle CPU, sends/s with 50 senders, CPU per send at N ÷ at 50, idle sessions
 * lost during a send burst, restart → all connected again, and (when the fleet is paired, not restored from the
 * cache) whether pairing keeps its pace as the fleet grows.
 *
 *   npm run bench:scale      (BENCH_SCALE_SESSIONS=2000, BENCH_SCALE_SENDERS=50, BENCH_SCALE_SENDS=20 per sender,
 *                             BENCH_SCALE_PROFILE=1 for the send bursts' CPU profiles)
 *
 * Load comes from this process (fetch); CPU and memory are read from the gateway process's /proc entries.
 */
import { startGateway, startSandbox, type GatewayProcess } from '../test/support/processes.js'
import { FleetCache } from './lib/fleet-cache.js'
import { PairingBlocks } from './lib/pairing-blocks.js'
import { pairFleet, sessionHeaders, type FleetSession } from './lib/fleet.js'
import { cpuSeconds, measureCpu, rssMb } from './lib/proc.js'
import { ProfiledPhase } from './lib/profiled.js'
import { BenchReport } from './lib/results.js'

const N = Number(process.env.BENCH_SCALE_SESSIONS ?? 2000)
const SENDERS = Math.min(N, Number(process.env.BENCH_SCALE_SENDERS ?? 50))
const SENDS = Number(process.env.BENCH_SCALE_SENDS ?? 20)
const IDLE_SECONDS = Number(process.env.BENCH_SCALE_IDLE_SECONDS ?? 30)
/** BENCH_SCALE_PROFILE=1: both send bursts and the restart under --cpu-prof, summarised (where CPU per send grows
 * with the fleet, and where a restore's CPU goes). */
const profiles =
  process.env.BENCH_SCALE_PROFILE === '1'
    ? { few: new ProfiledPhase(), many: new ProfiledPhase(), restart: new ProfiledPhase() }
    : undefined
const profiled = <T>(phase: ProfiledPhase | undefined, run: () => Promise<T>): Promise<T> => {
  phase?.start()
  return run().finally(() => phase?.end())
}
const PAIR_CONCURRENCY = Number(process.env.BENCH_SCALE_PAIR_CONCURRENCY ?? 10)
/** Baileys closes a socket that heard nothing for keep-alive interval (30 s) + 5 s: wait that long after a burst. */
const KEEPALIVE_WINDOW_MS = 36_000
const PEER = '15550000002'

const sleep = (ms: number) => new Promise(r => setTimeout(r, ms))
const log = (msg: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${msg}`)

async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length)
  let next = 0
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      for (let i = next++; i < items.length; i = next++) out[i] = await fn(items[i]!)
    }),
  )
  return out
}

/** How many of the fleet GET /session shows connected; answers other than 200 are counted into `failures`. */
async function connectedCount(gw: GatewayProcess, fleet: FleetSession[], failures = { count: 0 }): Promise<number> {
  const flags = await mapLimit(fleet, 16, async s => {
    const res = await fetch(`${gw.url}/session`, { headers: sessionHeaders(s) }).catch(() => undefined)
    if (!res?.ok) failures.count++
    return res?.ok ? ((await res.json()) as { isConnected: boolean }).isConnected : false
  })
  return flags.filter(Boolean).length
}

/** Every sender sends `count` texts one after another (each answered after the server ack), all senders at once. */
async function sendBurst(
  gw: GatewayProcess,
  senders: FleetSession[],
  count: number,
): Promise<{ ok: number; failed: number }> {
  let ok = 0
  let failed = 0
  await Promise.all(
    senders.map(async s => {
      for (let i = 0; i < count; i++) {
        const res = await fetch(`${gw.url}/message`, {
          method: 'POST',
          headers: { ...sessionHeaders(s), 'content-type': 'application/json' },
          body: JSON.stringify({ phone: PEER, type: 'text', text: `load ${i}` }),
        }).catch(() => undefined)
        if (res?.status === 200) ok++
        else failed++
        await res?.arrayBuffer()
      }
    }),
  )
  return { ok, failed }
}

async function sandboxStat(url: string, name: string): Promise<number> {
  const stats = (await (await fetch(`${url}/stats`)).json()) as Record<string, number>
  return stats[name] ?? 0
}

/** Polls until `count` of the fleet show connected; the seconds it took and how the API answered meanwhile. */
async function untilConnected(gw: GatewayProcess, fleet: FleetSession[], timeoutMs: number) {
  const t0 = performance.now()
  let probeFailures = 0
  let probeMaxMs = 0
  let connected = 0
  let polls = 0
  const pollFailures = { count: 0 }
  while (performance.now() - t0 < timeoutMs) {
    const t = performance.now()
    const res = await fetch(`${gw.url}/session`, { headers: sessionHeaders(fleet[0]!) }).catch(() => undefined)
    probeMaxMs = Math.max(probeMaxMs, performance.now() - t)
    if (!res?.ok) probeFailures++
    await res?.arrayBuffer()
    connected = await connectedCount(gw, fleet, pollFailures)
    polls += fleet.length
    if (connected === fleet.length) break
    await sleep(1000)
  }
  return {
    seconds: (performance.now() - t0) / 1000,
    connected,
    probeFailures,
    probeMaxMs,
    polls,
    pollFailures: pollFailures.count,
  }
}

// The fleet: `few` = the senders alone in a gateway of their own; `many` = N sessions in one gateway, the first
// SENDERS of them sending. Both live in one sandbox; both are kept in bench/.cache between runs (fleet-cache.ts).
const cache = new FleetCache(`scale-${N}-${SENDERS}`)
process.env.SANDBOX_STATE_FILE = cache.stateFile // startSandbox's child inherits it
const sandbox = await startSandbox()
const envFor = (part: string) => ({
  SANDBOX_URL: sandbox.url,
  DATA_DIR: cache.dataDir(part),
  SESSION_CREATE_PER_MINUTE: '0',
})
/** The big fleet's pairing, block by block (pairing-blocks.ts): it must keep its pace as the fleet grows. */
let pairing: PairingBlocks | undefined
const pairAll = (gw: GatewayProcess, count: number, phoneBase: number) => {
  const blocks = new PairingBlocks(250, () => ({
    gateway: cpuSeconds(gw.child.pid!),
    sandbox: cpuSeconds(sandbox.child.pid!),
  }))
  if (count >= 2 * blocks.block) pairing = blocks
  return pairFleet({
    gatewayUrl: gw.url,
    sandboxUrl: sandbox.url,
    count,
    concurrency: PAIR_CONCURRENCY,
    phoneBase,
    onPaired: (done, total) => {
      const line = blocks.paired(done)
      if (line) log(`  paired ${done}/${total}: ${line}`)
    },
  })
}
const report = new BenchReport('scale', {
  sessions: N,
  senders: SENDERS,
  sendsPerSender: SENDS,
  idleSeconds: IDLE_SECONDS,
  cachedFleet: cache.reused,
})
let gateway: GatewayProcess | undefined

try {
  // 1. SENDERS sessions alone in a gateway: warm up, then throughput and CPU per send
  gateway = await startGateway(envFor('few'), profiles?.few.nodeArgs)
  log(`${cache.reused ? 'restoring' : 'pairing'} ${SENDERS} senders`)
  const few = await cache.sessions('few', () => pairAll(gateway!, SENDERS, 15550100000))
  if ((await untilConnected(gateway, few, 300_000)).connected !== few.length) throw new Error('senders did not connect')
  await sendBurst(gateway, few, 2)
  // the same quiet spell as the big fleet gets below: a just-started gateway is still busy with its logins' syncs
  await sleep(10_000 + IDLE_SECONDS * 1000)
  const rssFew = rssMb(gateway.child.pid!)
  const alone = await measureCpu(gateway.child.pid!, () =>
    profiled(profiles?.few, () => sendBurst(gateway!, few, SENDS)),
  )
  log(
    `${SENDERS} connected: ${alone.result.ok} sends in ${alone.wall.toFixed(1)} s, ${((alone.cpu / alone.result.ok) * 1000).toFixed(1)} ms CPU each`,
  )
  await gateway.stop()
  if (profiles) report.note('sendProfileFew', profiles.few.summarise(`of the send burst, ${SENDERS} connected`).digest)

  // 2. the big fleet in one gateway
  gateway = await startGateway(envFor('many'), profiles?.many.nodeArgs)
  log(`${cache.reused ? 'restoring' : 'pairing'} ${N} sessions`)
  const fleet = await cache.sessions('many', () => pairAll(gateway!, N, 15550200000))
  const senders = fleet.slice(0, SENDERS)
  const cold = await untilConnected(gateway, fleet, 600_000)
  log(`${cold.connected}/${N} connected after ${cold.seconds.toFixed(0)} s`)
  await sendBurst(gateway, senders, 2)
  await sleep(10_000) // initial syncs settle
  const held = await connectedCount(gateway, fleet)
  const rssAll = rssMb(gateway.child.pid!)
  const idleRun = await measureCpu(gateway.child.pid!, () => sleep(IDLE_SECONDS * 1000))
  const idleCores = idleRun.cpu / idleRun.wall
  log(`${held} connected, RSS ${rssAll.toFixed(0)} MB, idle CPU ${idleCores.toFixed(2)} cores`)

  // 3. the same burst with the whole fleet connected; count logged-in connections that end meanwhile
  const endedBefore = await sandboxStat(sandbox.url, 'loginsEnded')
  const crowded = await measureCpu(gateway.child.pid!, () =>
    profiled(profiles?.many, () => sendBurst(gateway!, senders, SENDS)),
  )
  log(
    `${N} connected: ${crowded.result.ok} sends in ${crowded.wall.toFixed(1)} s, ${((crowded.cpu / crowded.result.ok) * 1000).toFixed(1)} ms CPU each`,
  )
  await sleep(KEEPALIVE_WINDOW_MS) // a starved keep-alive shows up to 35 s later
  const lost = (await sandboxStat(sandbox.url, 'loginsEnded')) - endedBefore
  const heldAfterBurst = await connectedCount(gateway, fleet)

  // 4. restart: every session connected again, the API answering throughout
  log('restarting the gateway')
  await gateway.stop()
  if (profiles) report.note('sendProfileMany', profiles.many.summarise(`of the send burst, ${N} connected`).digest)
  const restartAt = performance.now()
  // probes from the moment the new process answers HTTP, not from readiness: the restore is what they must survive
  profiles?.restart.start()
  gateway = await startGateway(envFor('many'), profiles?.restart.nodeArgs, { until: 'listening' })
  const answeringSeconds = (performance.now() - restartAt) / 1000
  const back = await untilConnected(gateway, fleet, 300_000)
  const restartSeconds = (performance.now() - restartAt) / 1000
  const restartCpu = cpuSeconds(gateway.child.pid!) // a new process: all it has used is the start and the restore
  if (profiles) {
    profiles.restart.end()
    await gateway.stop()
    report.note('restartProfile', profiles.restart.summarise(`of the restart, ${N} sessions`).digest)
  }
  log(`restart: ${back.connected}/${N} connected after ${restartSeconds.toFixed(1)} s`)

  const perSendFew = alone.cpu / alone.result.ok
  const perSendMany = crowded.cpu / crowded.result.ok
  const idlePerSend = (idleCores * crowded.wall) / crowded.result.ok // the keep-alive share of the burst's CPU
  report.add({
    figure: 'connected, idle sessions held by one gateway process',
    value: held,
    unit: 'sessions',
    goal: '2,000',
    met: held >= 2000,
    detail: `${heldAfterBurst} still connected after the send burst`,
  })
  const perSession = (rssAll - rssFew) / (N - SENDERS)
  report.add({
    figure: 'gateway memory per connected idle session',
    value: perSession,
    unit: 'MB',
    goal: '≤ 3 MB',
    met: perSession <= 3,
    detail: `RSS ${rssFew.toFixed(0)} MB (gateway with ${SENDERS}) → ${rssAll.toFixed(0)} MB (with ${N})`,
  })
  report.add({
    figure: `CPU of the idle gateway holding ${N} connected sessions`,
    value: idleCores,
    unit: 'cores',
    goal: '≤ 0.5',
    met: idleCores <= 0.5,
    detail: `${IDLE_SECONDS} s of keep-alives only`,
  })
  const rate = alone.result.ok / alone.wall
  report.add({
    figure: `text sends per second, ${SENDERS} sessions sending at once`,
    value: rate,
    unit: 'sends/s',
    goal: '≥ 130',
    met: rate >= 130,
    detail: `${SENDERS} connected; ${(crowded.result.ok / crowded.wall).toFixed(0)} sends/s with ${N} connected; failed ${alone.result.failed + crowded.result.failed}`,
  })
  const ratio = perSendMany / perSendFew
  report.add({
    figure: `CPU per send with ${N} connected ÷ with ${SENDERS} connected`,
    value: ratio,
    unit: 'ratio',
    goal: '≤ 1.5',
    met: ratio <= 1.5,
    detail: `${(perSendFew * 1000).toFixed(1)} → ${(perSendMany * 1000).toFixed(1)} ms per send; ${((perSendMany - idlePerSend) / perSendFew).toFixed(2)} without the idle fleet's keep-alive CPU`,
  })
  report.add({
    figure: `gateway restart with ${N} connected → all connected again`,
    value: restartSeconds,
    unit: 's',
    goal: '≤ 60 s',
    met: back.connected === N && restartSeconds <= 60,
    detail: `${back.connected}/${N} connected; API answering ${answeringSeconds.toFixed(1)} s after the old process exited; from then until all were back, probe GET /session: ${back.probeFailures} failed, slowest ${back.probeMaxMs.toFixed(0)} ms; ${back.pollFailures} of ${back.polls} GET /session polls of the whole fleet failed; gateway CPU ${restartCpu.toFixed(0)} s (${((restartCpu / N) * 1000).toFixed(0)} ms a session); first start: ${cold.seconds.toFixed(0)} s`,
  })
  const pace = pairing?.figure(N, PAIR_CONCURRENCY)
  if (pace) report.add(pace)
  report.add({
    figure: `sessions that lose their connection while ${SENDERS} others send, ${N} connected`,
    value: lost,
    unit: 'sessions',
    goal: '0',
    met: lost === 0,
    detail: `logged-in connections the sandbox saw end during the burst and ${KEEPALIVE_WINDOW_MS / 1000} s after`,
  })
  report.finish()
} catch (err) {
  console.error(gateway?.output().slice(-6000))
  throw err
} finally {
  await gateway?.stop()
  await sandbox.stop() // writes its state file
  cache.finish()
}
