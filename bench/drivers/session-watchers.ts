/**
 * @module bench/drivers/session-watchers
 * The clients of bench/session-wait.ts's cost figure, in their own process (run at nice 19): `clients` loops
 * watching GET /session of the given sessions (loop k watches session k mod their count), each on its own
 * keep-alive connection, for `seconds`:
 *   - `wait`: a plain read for the ETag, then `If-None-Match` + `?wait=<waitSeconds>` again and again (a 304 ends
 *     each wait, a 200 brings the change);
 *   - `poll`: a plain read every `pollMs` (the spec's 2 to 3 s), the loops spread over the interval.
 * On SIGTERM (or after `seconds`) it stops, closing its connections, and prints one JSON line: the answers by status.
 *
 *   node --import tsx bench/drivers/session-watchers.ts '{"gatewayUrl":…,"sessions":[…],"clients":1000,"mode":"wait"}'
 */
import http from 'node:http'

interface Spec {
  gatewayUrl: string
  sessions: { id: string; sessionId: string }[]
  clients: number
  mode: 'wait' | 'poll'
  seconds: number
  waitSeconds?: number
  pollMs?: number
}

const spec = JSON.parse(process.argv[2] ?? '{}') as Spec
const statuses: Record<string, number> = {}
const agent = new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY })
let stopping = false

function get(path: string, headers: Record<string, string>): Promise<{ status: number; etag?: string }> {
  return new Promise(resolve => {
    const req = http.request(`${spec.gatewayUrl}${path}`, { agent, headers }, res => {
      res.resume()
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, ...(res.headers.etag ? { etag: res.headers.etag } : {}) }),
      )
    })
    req.on('error', () => resolve({ status: 0 }))
    req.end()
  })
}

const sleep = (ms: number) => new Promise(resolve => setTimeout(resolve, ms))

async function loop(k: number): Promise<void> {
  const s = spec.sessions[k % spec.sessions.length]!
  const auth = { id: s.id, 'session-id': s.sessionId }
  let etag: string | undefined
  if (spec.mode === 'poll') await sleep(((spec.pollMs ?? 2_500) * k) / spec.clients)
  while (!stopping) {
    const waiting = spec.mode === 'wait' && etag !== undefined
    const r = await get(
      waiting ? `/session?wait=${spec.waitSeconds ?? 25}` : '/session',
      waiting ? { ...auth, 'if-none-match': etag! } : auth,
    )
    statuses[r.status] = (statuses[r.status] ?? 0) + 1
    if (r.etag) etag = r.etag
    if (r.status === 0 || r.status === 429) await sleep(1_000)
    else if (spec.mode === 'poll') await sleep(spec.pollMs ?? 2_500)
  }
}

const done = () => {
  if (stopping) return
  stopping = true
  agent.destroy() // hangs up the waiting requests: the gateway frees their slots
  console.log(JSON.stringify({ statuses }))
  process.exit(0)
}
process.on('SIGTERM', done)
setTimeout(done, spec.seconds * 1000)
await Promise.all(Array.from({ length: spec.clients }, (_, k) => loop(k)))
