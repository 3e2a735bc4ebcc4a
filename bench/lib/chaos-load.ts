/**
 * @module bench/lib/chaos-load
 * The chaos bench's load client, a process of its own (started at nice 19 by bench/chaos.ts, so that its CPU does
 * not compete with the gateway nodes it measures), driven over the IPC channel. Every session sends a text to its
 * contact, waits 5–10 s, sends the next, for as long as the run lasts, each time through a random node of the ones
 * the bench says are up, as an application behind a load balancer would:
 * - a 200 answers the send; a 503 or 429 is tried again after its `Retry-After` (1 s without one): the gateway
 *   ran nothing of it ("moving to another node", busy);
 * - a request refused at connect time (a node that went away) is sent again to another node: nothing was sent;
 * - any other failure (a reset, a time-out, another status) ends the send: it may have run, so a retry could
 *   deliver it twice. Those are counted apart, never as lost.
 * Each text carries a nonce, so the bench can find every answered text in the contact's inbox, and only once.
 * From the client's side it also records each unavailable stretch of a session: from the first attempt that did
 * not get a prompt 200 until the 200 that ended it.
 */
import { randomBytes } from 'node:crypto'

export interface LoadSession {
  id: string
  sessionId: string
  contact: string
}

export type ToLoad =
  | { type: 'start'; sessions: LoadSession[]; nodes: string[]; sendMinMs: number; sendMaxMs: number }
  | { type: 'nodes'; nodes: string[] }
  | { type: 'stop' }

export interface LoadResult {
  type: 'done'
  /** Texts answered 200, by contact. */
  answered: Record<string, string[]>
  /** Sends ended by anything else: `<status> <message>`, `error <code>`, `gave up`. */
  ended: Record<string, number>
  /** Sends answered only after a retry. */
  retried: number
  /** Lengths (ms) of every unavailable stretch a session saw. */
  stretches: number[]
  /** When each stretch started (ms since the epoch), beside `stretches`. */
  stretchStarts: number[]
  /** Per text whose send was not one prompt 200: each attempt's node, answer and times (for the post-mortem). */
  trails: Record<string, Attempt[]>
}

export interface Attempt {
  node: string
  /** The HTTP status, or the error code when there was no answer. */
  answer: string
  at: number
  ms: number
}

/** A 200 slower than this starts an unavailable stretch too (a request held while its session moved). */
const PROMPT_MS = 1_000
/** A request unanswered this long ends its send as unknown (a frozen node answers after it wakes, well before). */
const REQUEST_TIMEOUT_MS = 90_000
/** A send still refused after this long is given up (counted apart). */
const GIVE_UP_MS = 180_000

let nodes: string[] = []
let running = true
const result: LoadResult = {
  type: 'done',
  answered: {},
  ended: {},
  retried: 0,
  stretches: [],
  stretchStarts: [],
  trails: {},
}

const sleep = (ms: number) => new Promise(r => setTimeout(r, ms))
const pick = <T>(xs: T[]): T | undefined => xs[Math.floor(Math.random() * xs.length)]
const bump = (what: string) => {
  result.ended[what] = (result.ended[what] ?? 0) + 1
}

/** One send, tried again as a spec client does; whether it was answered 200, and when its first try started. */
async function send(s: LoadSession, text: string, onDown: (at: number) => void): Promise<boolean> {
  const started = Date.now()
  const trail: Attempt[] = []
  const note = (node: string, answer: string, at: number, detail = '') => {
    trail.push({ node, answer: detail ? `${answer} ${detail}` : answer, at, ms: Date.now() - at })
    if (answer !== '200' || trail.length > 1 || Date.now() - at > PROMPT_MS) result.trails[text] = trail
  }
  for (let tries = 1; ; tries++) {
    const node = pick(nodes)
    if (!node || Date.now() - started > GIVE_UP_MS) {
      if (Date.now() - started > GIVE_UP_MS) {
        bump('gave up')
        return false
      }
      await sleep(200)
      continue
    }
    const attempt = Date.now()
    let res: Response
    try {
      res = await fetch(`${node}/message`, {
        method: 'POST',
        headers: { id: s.id, 'session-id': s.sessionId, 'content-type': 'application/json' },
        body: JSON.stringify({ phone: s.contact, type: 'text', text }),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      })
    } catch (err) {
      const e = err as { name?: string; cause?: { code?: string } }
      const code = e.cause?.code ?? e.name ?? 'unknown'
      note(node, code, attempt)
      if (code === 'ECONNREFUSED') {
        onDown(attempt)
        await sleep(100)
        continue
      }
      bump(`error ${code}`)
      onDown(attempt)
      return false
    }
    const body = await res.text()
    note(node, String(res.status), attempt, res.status === 200 ? '' : body.slice(0, 100))
    if (res.status === 200) {
      if (tries > 1) result.retried++
      if (Date.now() - attempt > PROMPT_MS) onDown(attempt)
      return true
    }
    onDown(attempt)
    if (res.status === 503 || res.status === 429) {
      const retryAfter = Number(res.headers.get('retry-after'))
      await sleep((retryAfter > 0 ? retryAfter : 1) * 1000)
      continue
    }
    let message = ''
    try {
      message = String((JSON.parse(body) as { message?: unknown }).message ?? '')
    } catch {}
    bump(`${res.status} ${message}`)
    return false
  }
}

async function sessionLoop(s: LoadSession, index: number, minMs: number, maxMs: number): Promise<void> {
  await sleep(Math.random() * maxMs)
  let down: number | undefined
  const onDown = (at: number) => {
    down ??= at
  }
  for (let n = 0; running; n++) {
    const text = `chaos s${index} #${n} ${randomBytes(6).toString('hex')}`
    if (await send(s, text, onDown)) {
      ;(result.answered[s.contact] ??= []).push(text)
      if (down !== undefined) {
        result.stretches.push(Date.now() - down)
        result.stretchStarts.push(down)
        down = undefined
      }
    }
    await sleep(minMs + Math.random() * (maxMs - minMs))
  }
}

let loops: Promise<void>[] = []
process.on('message', (msg: ToLoad) => {
  if (msg.type === 'nodes') nodes = msg.nodes
  else if (msg.type === 'start') {
    nodes = msg.nodes
    loops = msg.sessions.map((s, i) => sessionLoop(s, i, msg.sendMinMs, msg.sendMaxMs))
  } else if (msg.type === 'stop') {
    running = false
    // every session finishes the send it is in, then its wait (at most the longest gap) ends its loop
    void Promise.all(loops).then(() => process.send!(result, () => process.exit(0)))
  }
})
