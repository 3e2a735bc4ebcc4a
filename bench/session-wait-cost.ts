/**
 * What waiting GET /session requests cost the gateway beside polling. In each of ROUNDS fresh worlds (sandbox at nice
 * 19 and gateway), SESSIONS sessions are paired and the gateway restarted on them (a restored fleet settles in
 * seconds; one just paired keeps syncing for minutes), all connected again and left until the gateway idles; then,
 * in this order, its RSS (mean of 5 samples) and CPU (% of a core over IDLE_S):
 *   - with no client;
 *   - with CLIENTS waiting requests on those sessions (each asked again when a 304 ends its 25 s wait), once all
 *     are parked;
 *   - with no client again, once the waiting clients hung up and their slots were freed;
 *   - with CLIENTS clients polling every 2.5 s (the spec's rate) instead.
 * CPU added is each phase minus the no-client phase just before it (the machine is shared: its load drifts). RSS per
 * waiting request is (RSS waiting − RSS with no client) ÷ CLIENTS in the same fresh process (RSS does not shrink
 * back once a heap has grown, so only a process's first wait phase is measured). The clients run in their own
 * process at nice 19 (bench/drivers/session-watchers.ts).
 *
 *   flock /tmp/bench.lock npm run bench:session-wait-cost
 *   BENCH_WAIT_CLIENTS (1000), BENCH_WAIT_SESSIONS (50), BENCH_WAIT_IDLE_S (30), BENCH_WAIT_COST_ROUNDS (3)
 */
import { niceDriver } from './lib/nice-driver.js'
import { cpuPercentOver, meanRssMb } from './lib/proc.js'
import { BenchReport, median } from './lib/results.js'
import { pairSessions, readSession } from './lib/sessions.js'
import { setting } from './lib/settings.js'
import { withWorld } from './lib/world.js'

const CLIENTS = setting('BENCH_WAIT_CLIENTS', 1_000)
const SESSIONS = setting('BENCH_WAIT_SESSIONS', 50)
const IDLE_S = setting('BENCH_WAIT_IDLE_S', 30)
const ROUNDS = setting('BENCH_WAIT_COST_ROUNDS', 3)
/** The fleet counts as idle once the gateway used less than this over 5 s (or after SETTLE_MAX_S). */
const IDLE_CORES = 0.05
const SETTLE_MAX_S = 120

const sleep = (s: number) => new Promise(resolve => setTimeout(resolve, s * 1000))
const round = (v: number, digits = 2) => Number(v.toFixed(digits))
const list = (xs: number[], digits = 1) => xs.map(x => round(x, digits)).join(', ')

const waiting = async (url: string) =>
  Number(/^gateway_session_waits (\d+)/m.exec(await (await fetch(`${url}/metrics`)).text())?.[1] ?? Number.NaN)

async function until(what: string, test: () => Promise<boolean>, seconds: number): Promise<void> {
  for (const end = Date.now() + seconds * 1000; !(await test()); await sleep(0.2))
    if (Date.now() > end) throw new Error(`timed out: ${what}`)
}

const rss = { none: [] as number[], wait: [] as number[], poll: [] as number[] }
const cpu = { none: [] as number[], wait: [] as number[], again: [] as number[], poll: [] as number[] }
const answers: Record<string, unknown>[] = []
const settled: number[] = []
const report = new BenchReport('session-wait-cost', {
  clients: CLIENTS,
  sessions: SESSIONS,
  idleSeconds: IDLE_S,
  rounds: ROUNDS,
})

for (let r = 0; r < ROUNDS; r++) {
  await withWorld(
    'session-wait-cost',
    { LOG_LEVEL: 'warn', SESSION_WAITS_PER_SESSION: String(Math.ceil(CLIENTS / SESSIONS)) },
    async world => {
      const sessions = await pairSessions({
        gatewayUrl: world.gateway.url,
        sandboxUrl: world.sandbox.url,
        count: SESSIONS,
        phoneBase: 15550600000,
      })
      const gateway = await world.restartGateway([])
      const pid = gateway.child.pid!
      for (const s of sessions)
        await until('connected again', async () => (await readSession(gateway.url, s)).isConnected, 120)
      const t0 = performance.now()
      for (let idle = Number.POSITIVE_INFINITY; idle > IDLE_CORES * 100; ) {
        idle = await cpuPercentOver(pid, 5)
        if (performance.now() - t0 > SETTLE_MAX_S * 1000) break
      }
      settled.push((performance.now() - t0) / 1000)
      rss.none.push(await meanRssMb(pid))
      cpu.none.push(await cpuPercentOver(pid, IDLE_S))
      for (const mode of ['wait', 'poll'] as const) {
        const spec = { gatewayUrl: gateway.url, sessions, clients: CLIENTS, mode, seconds: IDLE_S + 120 }
        const clients = niceDriver<{ statuses: Record<string, number> }>('session-watchers.ts', spec)
        if (mode === 'wait')
          await until(`${CLIENTS} waits parked`, async () => (await waiting(gateway.url)) >= CLIENTS, 60)
        else await sleep(3) // every poller has started within its first 2.5 s
        rss[mode].push(await meanRssMb(pid))
        cpu[mode].push(await cpuPercentOver(pid, IDLE_S))
        clients.child.kill('SIGTERM')
        answers.push({ round: r + 1, mode, ...(await clients.result).statuses })
        await until('the waits freed', async () => (await waiting(gateway.url)) === 0, 10)
        await sleep(3)
        if (mode === 'wait') cpu.again.push(await cpuPercentOver(pid, IDLE_S))
      }
      console.log(
        `  round ${r + 1}: RSS ${round(rss.none.at(-1)!, 1)} / ${round(rss.wait.at(-1)!, 1)} / ${round(rss.poll.at(-1)!, 1)} MB, ` +
          `CPU ${round(cpu.none.at(-1)!)} / ${round(cpu.wait.at(-1)!)} / ${round(cpu.again.at(-1)!)} / ${round(cpu.poll.at(-1)!)} % (no client / waiting / no client / polling)`,
      )
    },
    [],
    undefined,
    { sandboxNice: 19 },
  )
}

const perWait = rss.wait.map((v, i) => ((v - rss.none[i]!) * 1024) / CLIENTS)
const setup = `${SESSIONS} connected sessions (restored), ${ROUNDS} fresh processes (idle ${list(settled, 0)} s after all connected)`
report.add({
  figure: `RSS per waiting request (${CLIENTS} waiting on ${SESSIONS} sessions)`,
  value: median(perWait),
  unit: 'KB',
  detail: `${setup}; (RSS waiting − RSS with no client) ÷ ${CLIENTS}: ${list(perWait)} KB; RSS with no client ${list(rss.none)} MB, waiting ${list(rss.wait)} MB`,
})
report.add({
  figure: `gateway CPU added by ${CLIENTS} waiting requests (each renewed every 25 s)`,
  value: median(cpu.wait.map((v, i) => v - cpu.none[i]!)),
  unit: '% of a core',
  detail: `${setup}; over ${IDLE_S} s: with no client ${list(cpu.none)} %, waiting ${list(cpu.wait)} %`,
})
report.add({
  figure: `gateway CPU added by ${CLIENTS} clients polling every 2.5 s instead`,
  value: median(cpu.poll.map((v, i) => v - cpu.again[i]!)),
  unit: '% of a core',
  detail: `same processes, after the waits: with no client ${list(cpu.again)} %, polling ${list(cpu.poll)} %; RSS polling ${list(rss.poll)} MB`,
})
report.note('answers', answers)
report.finish()
