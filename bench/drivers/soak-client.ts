/**
 * @module bench/drivers/soak-client
 * The soak's clients, in their own process (forked by bench/soak.ts, spec over IPC): every session polls
 * GET /session, shows typing and sends texts on its own jittered timers, like many independent client apps, for
 * the given time. Each answer is classified: 2xx as expected; back-pressure in the spec's error shape (429, 503) as
 * expected refusals; any other error in the spec's shape `{statusCode, message}` (e.g. 500 `session not connected`)
 * as a clear failure, counted apart for sends; anything else (dropped connection, a body outside that shape, or a
 * bare 500 `internal server error`, which the spec lists only for POST /session) as unexpected. Reports counts every few
 * seconds and, at the end, every acknowledged message ID.
 */
import { Agent, request } from 'undici'

export interface SoakSpec {
  gatewayUrl: string
  sessions: { id: string; sessionId: string }[]
  peers: string[]
  seconds: number
  pollEveryMs: number
  typingEveryMs: number
  sendEveryMs: number
  runTag: string
}

export interface SoakCounts {
  requests: number
  ok: number
  backPressure: number
  sendsAcked: number
  sendsFailedClearly: number
  /** GET /session and POST /typing answered with a clear error in the spec's shape. */
  otherFailedClearly: number
  unexpected: number
  /** GET /session answered isConnected: false for a session that had been connected. */
  seenDisconnected: number
  /** Up to 20 distinct unexpected outcomes, for the report. */
  unexpectedSamples: string[]
  clearFailureSamples: string[]
}

export type SoakMessage =
  | { kind: 'progress'; counts: SoakCounts }
  | { kind: 'done'; counts: SoakCounts; acked: { id: string; peer: string }[] }

const spec = await new Promise<SoakSpec>(resolve => process.once('message', m => resolve(m as SoakSpec)))
// Enough sockets for every session's timers at once; keep-alive like a real client's, but idle sockets dropped well
// before the server's 5 s keep-alive timeout, so a reused socket is never one the server is closing.
const dispatcher = new Agent({ connections: 256, keepAliveTimeout: 2_000, keepAliveMaxTimeout: 2_000 })
const counts: SoakCounts = {
  requests: 0,
  ok: 0,
  backPressure: 0,
  sendsAcked: 0,
  sendsFailedClearly: 0,
  otherFailedClearly: 0,
  unexpected: 0,
  seenDisconnected: 0,
  unexpectedSamples: [],
  clearFailureSamples: [],
}
const acked: { id: string; peer: string }[] = []
const note = (list: string[], what: string) => {
  if (list.length < 20 && !list.includes(what)) list.push(what)
}
const end = Date.now() + spec.seconds * 1000

type Answer = { status: number; body: any } | { error: string }
async function call(
  method: 'GET' | 'POST',
  route: string,
  s: SoakSpec['sessions'][number],
  body?: unknown,
): Promise<Answer> {
  counts.requests++
  try {
    const res = await request(`${spec.gatewayUrl}${route}`, {
      method,
      dispatcher,
      headers: { id: s.id, 'session-id': s.sessionId, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    })
    const text = await res.body.text()
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch {
      parsed = text
    }
    return { status: res.statusCode, body: parsed }
  } catch (err) {
    return { error: (err as Error).message }
  }
}

const isClearError = (a: { status: number; body: any }) =>
  typeof a.body === 'object' &&
  a.body !== null &&
  a.body.statusCode === a.status &&
  typeof a.body.message === 'string' &&
  a.body.message.length > 0 &&
  a.body.message !== 'internal server error'

/** Common outcomes: true when the answer is a 2xx the caller should inspect further. */
function classify(route: string, a: Answer): a is { status: number; body: any } {
  if ('error' in a) {
    counts.unexpected++
    note(counts.unexpectedSamples, `${route}: ${a.error}`)
    return false
  }
  if (a.status >= 200 && a.status < 300) {
    counts.ok++
    return true
  }
  if ((a.status === 429 || a.status === 503) && isClearError(a)) {
    counts.backPressure++
    return false
  }
  if (isClearError(a)) {
    if (route === 'POST /message') counts.sendsFailedClearly++
    else counts.otherFailedClearly++
    note(counts.clearFailureSamples, `${route}: ${a.status} ${a.body.message}`)
    return false
  }
  counts.unexpected++
  note(counts.unexpectedSamples, `${route}: ${a.status} ${JSON.stringify(a.body).slice(0, 120)}`)
  return false
}

const sleep = (ms: number) => new Promise(r => setTimeout(r, ms))
/** Runs `fn` every ~`everyMs` (±50%, first run at a random offset) until the end. */
async function every(everyMs: number, fn: () => Promise<void>) {
  await sleep(Math.random() * everyMs)
  while (Date.now() < end) {
    await fn()
    await sleep(everyMs * (0.5 + Math.random()))
  }
}

let sendNo = 0
await Promise.all(
  spec.sessions
    .flatMap((s, i) => {
      const peer = spec.peers[i % spec.peers.length]!
      return [
        every(spec.pollEveryMs, async () => {
          const a = await call('GET', '/session', s)
          if (classify('GET /session', a) && a.body.isConnected !== true) counts.seenDisconnected++
        }),
        every(spec.typingEveryMs, async () => {
          classify('POST /typing', await call('POST', '/typing', s, { phone: peer }))
        }),
        every(spec.sendEveryMs, async () => {
          const a = await call('POST', '/message', s, {
            phone: peer,
            type: 'text',
            text: `${spec.runTag} ${i} ${sendNo++}`,
          })
          if (!classify('POST /message', a)) return
          if (typeof a.body?.messageId === 'string' && a.body.messageId) {
            counts.sendsAcked++
            acked.push({ id: a.body.messageId, peer })
          } else {
            counts.unexpected++
            note(counts.unexpectedSamples, `POST /message: 2xx without messageId ${JSON.stringify(a.body)}`)
          }
        }),
      ]
    })
    .concat(
      (async () => {
        while (Date.now() < end) {
          await sleep(5000)
          process.send!({ kind: 'progress', counts } satisfies SoakMessage)
        }
      })(),
    ),
)

process.send!({ kind: 'done', counts, acked } satisfies SoakMessage, () => process.exit(0))
