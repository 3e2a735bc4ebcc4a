/**
 * A rolling restart of a three-node cluster under a steady send load (what its clients see): one redis-server, the
 * sandbox (nice 19), three gateway nodes on loopback with the production lease and heartbeat settings, SESSIONS paired
 * sessions, and a client sending RATE texts a second round-robin over the sessions through a random node, the way
 * an application behind a load balancer would: it honours Retry-After (waits, then sends the same request again)
 * and, like a balancer whose node went away, sends a request refused at connect time to another node. Each node
 * in turn gets SIGTERM, exits, starts again with the same NODE_ID, and the cluster settles before the next.
 *
 * Figures: requests that failed for that client (goal 0), messages the contact got twice or not at all (goal 0),
 * and the longest time any session's send waited from its first attempt to its 200 (Retry-After waits included):
 * the longest any session was unable to send; beside it, how long a node took to hand its sessions over and stop.
 *
 *   npm run bench:rolling-restart   BENCH_ROLL_SESSIONS (20), BENCH_ROLL_RATE (10 sends/s)
 */
import type { GatewayProcess } from '../test/support/processes.js'
import { startClusterWorld } from './lib/cluster-world.js'
import { pairFleet, sessionHeaders, type FleetSession } from './lib/fleet.js'
import { BenchReport, percentile } from './lib/results.js'
import { setting } from './lib/settings.js'
import { settled } from './lib/settled.js'

const SESSIONS = setting('BENCH_ROLL_SESSIONS', 20)
const RATE = setting('BENCH_ROLL_RATE', 10)
const CONTACT = '15550999998'
const MAX_TRIES = 30

const report = new BenchReport('rolling-restart', { sessions: SESSIONS, sendsPerSecond: RATE })
const world = await startClusterWorld('roll', { SEND_RATE_PER_SECOND: '0' })
const { sandbox, nodes, startNode, ownerOf } = world

const settledFleet = (fleet: FleetSession[]) =>
  settled(
    fleet.map(s => s.id),
    id => ownerOf({ id }),
  )

interface Outcome {
  text: string
  status: number
  tries: number
  /** From the first attempt to the last answer. */
  ms: number
}

/** One send as a Retry-After-honouring client behind a load balancer makes it. */
async function send(s: FleetSession, text: string): Promise<Outcome> {
  const started = Date.now()
  let status = 0
  for (let tries = 1; tries <= MAX_TRIES; tries++) {
    const live = nodes.filter((n): n is GatewayProcess => n !== undefined)
    const node = live[Math.floor(Math.random() * live.length)]!
    let res: Response
    try {
      res = await fetch(`${node.url}/message`, {
        method: 'POST',
        headers: { ...sessionHeaders(s), 'content-type': 'application/json' },
        body: JSON.stringify({ phone: CONTACT, type: 'text', text }),
      })
    } catch (err) {
      // refused at connect time: nothing was sent (the balancer tries another node); anything else may have been
      const code = (err as { cause?: { code?: string } }).cause?.code
      if (code === 'ECONNREFUSED') continue
      return { text, status: 0, tries, ms: Date.now() - started }
    }
    status = res.status
    await res.arrayBuffer()
    const retryAfter = Number(res.headers.get('retry-after'))
    if ((status === 503 || status === 429) && retryAfter > 0) {
      await new Promise(r => setTimeout(r, retryAfter * 1000))
      continue
    }
    return { text, status, tries, ms: Date.now() - started }
  }
  return { text, status, tries: MAX_TRIES, ms: Date.now() - started }
}

try {
  for (let i = 0; i < 3; i++) await startNode(i)
  await new Promise(r => setTimeout(r, 5_000)) // every node has seen the others twice
  await fetch(`${sandbox.url}/world`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ accounts: [{ phone: CONTACT, name: 'Contact' }] }),
  })
  const fleet = await pairFleet({
    gatewayUrl: nodes[0]!.url,
    sandboxUrl: sandbox.url,
    count: SESSIONS,
    concurrency: 5,
    phoneBase: 15550600000,
  })
  await settledFleet(fleet)

  // the steady load: RATE sends a second, each on its own (a slow one does not hold the next back)
  const outcomes: Promise<Outcome>[] = []
  let n = 0
  const load = setInterval(() => {
    const s = fleet[n % fleet.length]!
    outcomes.push(send(s, `roll #${n++}`))
  }, 1000 / RATE)
  await new Promise(r => setTimeout(r, 5_000))

  const stops: number[] = []
  const rolls: number[] = []
  for (let i = 0; i < 3; i++) {
    const rollStarted = Date.now()
    const gone = nodes[i]!
    nodes[i] = undefined // the balancer stops sending to it as it is told to stop
    await gone.stop('SIGTERM')
    const restarted = Date.now()
    stops.push((restarted - rollStarted) / 1000)
    await startNode(i)
    await settledFleet(fleet)
    rolls.push((Date.now() - rollStarted) / 1000)
    await new Promise(r => setTimeout(r, 3_000))
  }
  clearInterval(load)
  const results = await Promise.all(outcomes)
  const ok = results.filter(o => o.status === 200)
  const failed = results.filter(o => o.status !== 200)

  // each 200 arrived, and once
  await new Promise(r => setTimeout(r, 5_000))
  const inbox = (
    (await (await fetch(`${sandbox.url}/accounts/${CONTACT}/inbox`)).json()) as { messages: { text: string }[] }
  ).messages
  const counts = new Map<string, number>()
  for (const m of inbox) counts.set(m.text, (counts.get(m.text) ?? 0) + 1)
  const twice = [...counts.values()].filter(c => c > 1).length
  const missing = ok.filter(o => !counts.has(o.text)).length
  const waits = results.map(o => o.ms / 1000)
  const detail = `${results.length} sends at ${RATE}/s over ${SESSIONS} sessions, 3 nodes restarted one after another`
  report.add({
    figure: 'requests failed for a client honouring Retry-After',
    value: failed.length,
    unit: 'requests',
    goal: '0',
    met: failed.length === 0,
    detail: failed.length ? `statuses ${[...new Set(failed.map(f => f.status))].join(', ')}` : detail,
  })
  report.add({
    figure: 'answered 200 but not delivered',
    value: missing,
    unit: 'messages',
    goal: '0',
    met: missing === 0,
  })
  report.add({ figure: 'delivered twice', value: twice, unit: 'messages', goal: '0', met: twice === 0 })
  report.add({
    figure: 'send answered after retries, share',
    value: results.filter(o => o.tries > 1).length / results.length,
    unit: 'ratio',
    detail,
  })
  report.add({
    figure: 'longest a send waited (Retry-After included)',
    value: Math.max(...waits),
    unit: 's',
    detail: `p99 ${percentile(waits, 0.99).toFixed(2)} s, p50 ${percentile(waits, 0.5).toFixed(3)} s`,
  })
  report.add({
    figure: 'SIGTERM to exit (every session handed over)',
    value: Math.max(...stops),
    unit: 's',
    detail: stops.map(r => r.toFixed(1)).join(', '),
  })
  report.add({
    figure: 'one node restarted and settled again',
    value: Math.max(...rolls),
    unit: 's',
    detail: rolls.map(r => r.toFixed(1)).join(', '),
  })
} finally {
  await world.close()
}
report.finish()
