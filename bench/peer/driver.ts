/**
 * The side-by-side driver: measures one gateway (ours, or the peer) that run-all.sh started on a fresh sandbox, the
 * same way for both, and writes one result file (settings: driver-settings.ts):
 * - RSS at 0 sessions, and growth per idle session with N paired (the peer's Redis counted beside it);
 * - idle CPU (% of one core) with 0 sessions and with N connected;
 * - time to pair N, CONCURRENCY at a time (the QR decoded from the gateway's PNG and scanned by a sandbox phone);
 * - a burst of LOOPS closed send loops for SEND_S, to one contact or to LOOPS distinct ones: 2xx/s, latency, gateway
 *   CPU per delivered text (the burst and TAIL_S after it ÷ the texts found in the recipients' inboxes), and whether
 *   every 2xx arrived; RSS after it.
 * Process figures come from /proc (every thread of the process). Ours answers after the platform's server ack, the
 * peer once it has written the stanza: the latencies are not alike.
 *
 *   npx tsx bench/peer/driver.ts <ours|peer> --gateway-pid PID [--redis-pid PID] [--sandbox-pid PID]
 */
import { writeFileSync } from 'node:fs'
import { deliveredOf } from '../lib/delivered.js'
import { cpuSeconds, rssMb } from '../lib/proc.js'
import { percentile } from '../lib/results.js'
import { settings as S } from './driver-settings.js'
import { type PairedSession, peerGateway, ourGateway, type SideGateway } from './gateways.js'

const which = process.argv[2]
if (which !== 'ours' && which !== 'peer') {
  console.error(
    'usage: npx tsx bench/peer/driver.ts <ours|peer> --gateway-pid PID [--redis-pid PID] [--sandbox-pid PID]',
  )
  process.exit(2)
}
const pidArg = (name: string) => {
  const i = process.argv.indexOf(name)
  return i > 0 ? Number(process.argv[i + 1]) : undefined
}
const gatewayPid = pidArg('--gateway-pid')
const redisPid = pidArg('--redis-pid')
const sandboxPid = pidArg('--sandbox-pid')
if (!gatewayPid) throw new Error('--gateway-pid is required')

const log = (...a: unknown[]) => console.error(`[${new Date().toISOString().slice(11, 19)}] [${which}]`, ...a)
const sleep = (s: number) => new Promise(resolve => setTimeout(resolve, s * 1000))
const round = (x: number, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits

/** Mean of 5 RSS samples a second apart, of the gateway and (the peer's) Redis. */
async function sampleRss() {
  const gateway: number[] = []
  const redis: number[] = []
  for (let i = 0; i < 5; i++) {
    if (i) await sleep(1)
    gateway.push(rssMb(gatewayPid!))
    if (redisPid) redis.push(rssMb(redisPid))
  }
  const mean = (xs: number[]) => (xs.length ? round(xs.reduce((a, b) => a + b, 0) / xs.length, 1) : null)
  return { gatewayMb: mean(gateway)!, redisMb: mean(redis) }
}

/** CPU seconds so far of the gateway, Redis and the sandbox, and when. */
const cpuNow = () => ({
  t: performance.now(),
  gateway: cpuSeconds(gatewayPid!),
  redis: redisPid ? cpuSeconds(redisPid) : null,
  sandbox: sandboxPid ? cpuSeconds(sandboxPid) : null,
})
type Cpu = ReturnType<typeof cpuNow>
function cpuBetween(a: Cpu, b: Cpu) {
  const wallS = (b.t - a.t) / 1000
  const pct = (x: number | null, y: number | null) => (x === null || y === null ? null : round(((y - x) / wallS) * 100))
  return {
    wallS: round(wallS),
    gatewayCpuS: b.gateway - a.gateway,
    redisCpuS: a.redis === null || b.redis === null ? null : b.redis - a.redis,
    gatewayPct: pct(a.gateway, b.gateway)!,
    redisPct: pct(a.redis, b.redis),
    sandboxPct: pct(a.sandbox, b.sandbox),
  }
}

async function pairAll(gw: SideGateway) {
  const sessions: PairedSession[] = new Array(S.N)
  let next = 0
  let retries = 0
  const t0 = performance.now()
  const lane = async () => {
    for (let i = next++; i < S.N; i = next++) {
      const phone = String(S.PHONE_BASE + i)
      for (let attempt = 1; ; attempt++) {
        try {
          sessions[i] = await gw.pair(phone)
          break
        } catch (err) {
          if (attempt >= 3) throw err
          retries++
          log(`pairing ${phone} failed (${(err as Error).message}), again`)
        }
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(S.CONCURRENCY, S.N) }, lane))
  return { sessions, seconds: round((performance.now() - t0) / 1000), retries }
}

async function burst(gw: SideGateway, sessions: PairedSession[]) {
  const recipientOf = (k: number) => (S.MODE === 'one' ? S.CONTACT : String(S.DISTINCT_BASE + k))
  const statuses: Record<number, number> = {}
  const latencies: number[] = []
  const sent = new Map<string, string[]>()
  const c0 = cpuNow()
  const end = c0.t + S.SEND_S * 1000
  const loop = async (k: number) => {
    const to = recipientOf(k)
    for (let i = 0; performance.now() < end; i++) {
      const t = performance.now()
      const r = await gw.send(sessions[k]!, to, `bench ${S.TAG} ${k}.${i}`).catch(() => ({ status: 0, id: undefined }))
      statuses[r.status] = (statuses[r.status] ?? 0) + 1
      if (r.status < 200 || r.status >= 300) continue
      latencies.push(performance.now() - t)
      if (r.id) sent.set(to, [...(sent.get(to) ?? []), r.id])
    }
  }
  await Promise.all(Array.from({ length: S.LOOPS }, (_, k) => loop(k)))
  const c1 = cpuNow()
  await sleep(S.TAIL_S)
  const cpu = cpuBetween(c0, cpuNow())
  const withId = [...sent.values()].reduce((n, ids) => n + ids.length, 0)
  const delivered = await deliveredOf(S.SANDBOX_URL, sent, withId, S.ARRIVE_WAIT_S, 2)
  const seconds = (c1.t - c0.t) / 1000
  const perDelivered = (cpuS: number | null) =>
    delivered && cpuS !== null ? round((cpuS * 1000) / delivered, 3) : null
  return {
    mode: S.MODE,
    loops: S.LOOPS,
    seconds: round(seconds),
    statuses,
    ok2xx: latencies.length,
    okPerS: round(latencies.length / seconds, 1),
    withId,
    delivered,
    lost: withId - delivered,
    p50Ms: round(percentile(latencies, 0.5), 1),
    p99Ms: round(percentile(latencies, 0.99), 1),
    cpu,
    gatewayCpuMsPerDelivered: perDelivered(cpu.gatewayCpuS),
    gatewayPlusRedisCpuMsPerDelivered: cpu.redisCpuS === null ? null : perDelivered(cpu.gatewayCpuS + cpu.redisCpuS),
    rssAfter: await sampleRss(),
  }
}

async function main() {
  const gw = which === 'ours' ? ourGateway() : await peerGateway()
  const result: Record<string, unknown> = {
    gateway: which,
    tag: S.TAG,
    startedAt: new Date().toISOString(),
    n: S.N,
    settings: { ...S, API_KEY: undefined },
    meta: process.env.BENCH_META ? JSON.parse(process.env.BENCH_META) : undefined,
  }
  await sleep(S.BASE_WAIT_S)
  const rss0 = await sampleRss()
  result.rss0 = rss0
  log(`RSS at 0 sessions: ${rss0.gatewayMb} MB${redisPid ? ` + Redis ${rss0.redisMb} MB` : ''}`)
  if (S.IDLE0_S > 0) {
    const z = cpuNow()
    await sleep(S.IDLE0_S)
    result.idleCpu0 = cpuBetween(z, cpuNow())
  }
  const { sessions, seconds, retries } = await pairAll(gw)
  result.pair = { seconds, retries }
  log(`paired ${S.N} in ${seconds} s (${retries} retries); settling ${S.SETTLE_S} s`)
  await sleep(S.SETTLE_S)
  const rssIdle = await sampleRss()
  result.rssIdle = rssIdle
  result.perSessionMb = round((rssIdle.gatewayMb - rss0.gatewayMb) / S.N, 3)
  result.redisPerSessionMb = redisPid ? round((rssIdle.redisMb! - rss0.redisMb!) / S.N, 3) : null
  const i0 = cpuNow()
  await sleep(S.IDLE_S)
  result.idleCpu = cpuBetween(i0, cpuNow())
  result.connectedAfterIdle = await gw.connectedCount(sessions)
  if (S.MODE !== 'none') {
    const b = await burst(gw, sessions)
    result.burst = b
    log(`burst: ${b.okPerS} 2xx/s, delivered ${b.delivered}/${b.withId}, ${b.gatewayCpuMsPerDelivered} ms CPU each`)
    result.connectedAfterBurst = await gw.connectedCount(sessions)
  }
  if ('webhookEvents' in gw) result.webhookEvents = gw.webhookEvents
  result.finishedAt = new Date().toISOString()
  const text = `${JSON.stringify(result, null, 2)}\n`
  if (S.OUT) writeFileSync(S.OUT, text)
  console.log(text)
  gw.close()
}

// the exit also ends fetch's kept-alive connections to the gateway
main().then(
  () => process.exit(0),
  err => {
    console.error(err)
    process.exit(1)
  },
)
