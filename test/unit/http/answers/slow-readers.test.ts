/**
 * Answers bounded by what the client reads, from the attacker's side: a tenant reads a large channel history on
 * sockets that never read. Its answers are cut after ANSWER_WRITE_TIMEOUT_MS, the bytes they hold count against
 * ANSWER_BYTES_PER_PROCESS (past it the large reads answer 503 while a neighbour's GET /session and the probes
 * answer), and each holds one of its session's MAX_PENDING_PER_SESSION places until it is gone.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { Admission } from '../../../../src/actors/main/admission.js'
import type { ChannelPage } from '../../../../src/protocol/spec-types.js'
import { type GuardedGateway, serveGuarded } from '../../../support/fakes/guarded-gateway.js'
import { waitFor } from '../../../support/wait-for.js'

const CHANNEL = '120363000000000002@newsletter'
const HISTORY = `/channel/message?channelId=${encodeURIComponent(CHANNEL)}`

/** A page of 100 posts of 80 KiB: 8 MB of JSON, more than the kernel's socket buffers take on loopback. */
function largePage(): ChannelPage {
  const text = 'x'.repeat(80 * 1024)
  const docs = Array.from({ length: 100 }, (_, i) => ({
    id: `ID${i}`,
    serverId: 1000 - i,
    url: '',
    type: 'text' as const,
    text,
    created: '',
  }))
  return { docs, before: 901 }
}

let gateway: GuardedGateway | undefined
afterEach(async () => {
  await gateway?.close()
  gateway = undefined
})

async function start(env: NodeJS.ProcessEnv): Promise<GuardedGateway> {
  gateway = await serveGuarded(env)
  const page = largePage()
  gateway.system.onRun = (_id, command) => {
    if (command.type === 'listChannelMessages') return page
    if (command.type === 'listGroups') return { docs: [] }
    throw new Error(`unexpected ${command.type}`)
  }
  return gateway
}

const waiting = (g: GuardedGateway) => g.metric('gateway_http_answer_bytes_waiting')
/** An answer in the spec's error shape, with its Retry-After. */
async function expectRefusal(res: Response, status: number, retryAfter: string, message: string): Promise<void> {
  expect([res.status, res.headers.get('retry-after')]).toEqual([status, retryAfter])
  expect(await res.json()).toEqual({ statusCode: status, message })
}

const headersOf = (s: { id: string; sessionId: string }) => ({ id: s.id, 'session-id': s.sessionId })

describe('a client that never reads its answers', () => {
  it('is cut after ANSWER_WRITE_TIMEOUT_MS, and what its answers held is given back', async () => {
    const g = await start({ ANSWER_WRITE_TIMEOUT_MS: '400' })
    for (let i = 0; i < 3; i++) await g.neverReading(HISTORY, g.auth)
    // each answer stalls with most of its 8 MB waiting in the process
    await waitFor('the answers stalled', async () => (await waiting(g)) > 3 * 2_000_000, 10_000, 50)
    await waitFor('the answers cut', async () => (await g.metric('gateway_http_answers_cut_total')) === 3, 10_000, 50)
    expect(await waiting(g)).toBe(0)
    // the session's slots came back with them: it reads again
    const again = await fetch(`${g.url}/group`, { headers: g.auth })
    expect(again.status).toBe(200)
  })

  it('past ANSWER_BYTES_PER_PROCESS, large reads answer 503 with Retry-After; a neighbour polls and probes as before', async () => {
    const g = await start({ ANSWER_BYTES_PER_PROCESS: String(1024 * 1024), ANSWER_WRITE_TIMEOUT_MS: '60000' })
    const neighbour = headersOf(g.system.add('sess-2', 'secret-2'))
    const slow = await g.neverReading(HISTORY, g.auth)
    await waitFor('the answer stalled', async () => (await waiting(g)) > 1024 * 1024, 10_000, 50)

    for (const [path, headers] of [
      [HISTORY, neighbour],
      ['/group', neighbour],
      [HISTORY, g.auth],
    ] as const) {
      const refused = await fetch(`${g.url}${path}`, { headers })
      await expectRefusal(refused, 503, '2', 'too many answers waiting for their clients to read them, retry in 2 s')
    }
    const poll = await fetch(`${g.url}/session`, { headers: neighbour })
    expect(poll.status).toBe(200)
    expect((await fetch(`${g.url}/healthz`)).status).toBe(200)
    expect((await fetch(`${g.url}/readyz`)).status).toBe(200)
    expect(await g.metric('gateway_http_answers_refused_total')).toBe(3)

    // the slow reader leaves: its bytes are given back, and the reads are served again
    slow.destroy()
    await waitFor('the bytes given back', async () => (await waiting(g)) === 0, 10_000, 50)
    const served = await fetch(`${g.url}${HISTORY}`, { headers: neighbour })
    expect(served.status).toBe(200)
    expect(((await served.json()) as ChannelPage).docs).toHaveLength(100)
  })

  it('a burst of reads admitted together passes ANSWER_BYTES_PER_PROCESS by one answer at most', async () => {
    const g = await start({ ANSWER_BYTES_PER_PROCESS: String(1024 * 1024), ANSWER_WRITE_TIMEOUT_MS: '60000' })
    // every read is admitted before any answer exists: the platform answers them all at once, once released
    let release = () => {}
    const released = new Promise<void>(resolve => {
      release = resolve
    })
    const page = largePage()
    g.system.onRun = async () => {
      await released
      return page
    }
    for (let i = 0; i < 5; i++) await g.neverReading(HISTORY, g.auth)
    await waitFor('the five reads admitted', () => g.system.commands.length === 5, 10_000, 50)
    release()
    await waitFor('four refused', async () => (await g.metric('gateway_http_answers_refused_total')) === 4, 10_000, 50)
    const oneAnswer = Buffer.byteLength(JSON.stringify(page))
    expect(await waiting(g)).toBeGreaterThan(1024 * 1024)
    expect(await waiting(g)).toBeLessThan(oneAnswer + 1024) // one answer and its headers
  })

  it('holds its session pending slots until each answer is gone: its next request is busy, a neighbour is not', async () => {
    const g = await start({ ANSWER_WRITE_TIMEOUT_MS: '60000' })
    g.system.admission = new Admission({ shards: 1, perSession: 2, shardLimit: 1000 })
    const neighbour = headersOf(g.system.add('sess-2', 'secret-2'))
    const slow = [await g.neverReading(HISTORY, g.auth), await g.neverReading(HISTORY, g.auth)]
    await waitFor('both answers stalled', async () => (await waiting(g)) > 2 * 2_000_000, 10_000, 50)

    const busy = await fetch(`${g.url}/group`, { headers: g.auth })
    await expectRefusal(busy, 429, '1', 'too many requests in flight for this session, retry in 1 s')
    const other = await fetch(`${g.url}/group`, { headers: neighbour })
    expect(other.status).toBe(200)

    for (const socket of slow) socket.destroy()
    await waitFor('the slots given back', () => g.system.admission?.pending(g.auth.id) === 0, 10_000, 50)
    expect((await fetch(`${g.url}/group`, { headers: g.auth })).status).toBe(200)
  })
})
