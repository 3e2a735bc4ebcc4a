/**
 * GET /session that waits, against the real gateway process and the sandbox with unmodified Baileys: a wait answers
 * the change (a scan, a dropped connection, a logout from the phone, a deletion) within 100 ms of it and never
 * before it; it ends with 304 and the state's ETag when nothing changed; a stale ETag is answered at once; the
 * bounds answer 429 without touching a neighbour; a client that hangs up frees its slot; SIGTERM answers the waits
 * at once instead of holding the drain.
 *
 * When a change happened is read as a client would see it: a poller asks GET /session (no wait) every 5 ms from the
 * moment the cause is set off, and the first answer it gets with another ETag is the change's latest possible time.
 * The waiting request must answer after the cause, with another ETag (so after the change), and at most 100 ms after
 * the poller saw it.
 */
import { rmSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { createGatewayClient, waitForSession } from '../../../src/client/index.js'
import { decodeQrPng } from '../../../src/demo/qr-decode.js'
import { startGateway } from '../../support/processes.js'
import { parseProm, sumOf } from '../../support/prom-text.js'
import { sandboxCall, type Session } from '../../support/system/harness.js'
import { gatewayWorld } from '../../support/system/paired-gateway.js'
import { clearFaults, setFaults } from '../../support/system/faults.js'
import { waitFor } from '../../support/wait-for.js'

const ALICE = '15550000001'
/** A change answered later than this after a 5 ms poller saw it fails the test. */
const PROMPT_MS = 100

const world = gatewayWorld({
  env: {
    SESSION_WAITS_PER_SESSION: '2',
    SESSION_WAITS_PER_CLIENT: '3',
    SESSION_WAITS_PER_PROCESS: '4',
    // the tests play two clients from loopback: X-Forwarded-For is believed from there
    TRUST_PROXY: 'loopback',
  },
})

const auth = (s: Session) => ({ id: s.id, 'session-id': s.sessionId })

interface Answer {
  status: number
  etag: string | null
  connection: string | null
  body: any
  /** performance.now() when the answer's headers arrived. */
  at: number
}

/** A GET /session as sent: plain, or with If-None-Match and `?wait=`. */
async function ask(url: string, s: Session, held?: string, wait?: number, headers: object = {}): Promise<Answer> {
  const res = await fetch(`${url}/session${wait === undefined ? '' : `?wait=${wait}`}`, {
    headers: { ...auth(s), ...(held ? { 'if-none-match': held } : {}), ...headers },
  })
  const at = performance.now()
  const text = await res.text()
  return {
    status: res.status,
    etag: res.headers.get('etag'),
    connection: res.headers.get('connection'),
    body: text ? JSON.parse(text) : undefined,
    at,
  }
}

/** A new session once it shows its first QR: its state then holds still until the QR rotates, a minute later. */
async function newSessionWithQr(): Promise<Session> {
  const session = await world.gw.createSession()
  await waitForSession(createGatewayClient(world.gw.url), session, s => s.qrcode !== '', { timeoutMs: 60_000 })
  return session
}

/** The ETag once the session held still for 2 s (a paired session's name and picture come after it connects). */
async function settledEtag(s: Session): Promise<string> {
  for (;;) {
    const now = (await ask(world.gw.url, s)).etag!
    if ((await ask(world.gw.url, s, now, 2)).status === 304) return now
  }
}

const waiting = async (url: string) =>
  sumOf(parseProm(await (await fetch(`${url}/metrics`)).text()), 'gateway_session_waits')

const parked = (url: string, count: number) =>
  waitFor(`${count} waiting request(s)`, async () => (await waiting(url)) === count, 10_000, 20)

/** Polls GET /session every 5 ms until its ETag is not `held`; resolves with when that answer came. */
async function seenChange(url: string, s: Session, held: string): Promise<number> {
  return waitFor(
    'a change of the session',
    async () => {
      const now = await ask(url, s)
      return now.etag !== held && now.at
    },
    60_000,
    5,
  )
}

/** Parks a wait on `held`, sets off `cause`, and measures the wait's answer against the cause and the change. */
async function measure(s: Session, held: string, cause: () => Promise<unknown>) {
  const answer = ask(world.gw.url, s, held, 30)
  await parked(world.gw.url, 1)
  const causedAt = performance.now()
  const seen = seenChange(world.gw.url, s, held)
  await cause()
  const [waited, seenAt] = await Promise.all([answer, seen])
  return { waited, causedAt, seenAt }
}

function expectPrompt({ waited, causedAt, seenAt }: Awaited<ReturnType<typeof measure>>, held: string): void {
  expect(waited.status).toBe(200)
  expect(waited.etag).not.toBe(held) // it shows the change: it did not answer before it
  expect(waited.at).toBeGreaterThan(causedAt)
  expect(waited.at - seenAt).toBeLessThanOrEqual(PROMPT_MS)
}

describe('a waiting GET /session', () => {
  it('answers a scan, a drop, a logout and a deletion as they happen, never before', async () => {
    const session = await world.gw.createSession()
    const gateway = createGatewayClient(world.gw.url)
    const withQr = await waitForSession(gateway, session, s => s.qrcode !== '', { timeoutMs: 60_000 })
    const qrEtag = (await ask(world.gw.url, session)).etag!

    // the phone scans: the QR goes, the session connects
    const scan = () => sandboxCall(world.sandbox.url, 'POST', '/scan', { qr: decodeQrPng(withQr.qrcode), phone: ALICE })
    expectPrompt(await measure(session, qrEtag, scan), qrEtag)
    const linked = await waitForSession(gateway, session, s => s.isConnected, { timeoutMs: 90_000 })
    expect(linked.generatedId).toMatch(/^15550000001:\d+@s\.whatsapp\.net$/)

    // the platform drops the connection: isConnected false at once (then it reconnects)
    const connectedEtag = await settledEtag(session)
    const drop = await measure(session, connectedEtag, () => setFaults(world.sandbox.url, { dropSessionOf: ALICE }))
    expectPrompt(drop, connectedEtag)
    expect(drop.waited.body.isConnected).toBe(false)
    await waitForSession(gateway, session, s => s.isConnected, { timeoutMs: 60_000 })

    // the phone logs the device out: no longer connected, a QR to scan again follows
    const beforeLogout = await settledEtag(session)
    const logout = await measure(session, beforeLogout, () => setFaults(world.sandbox.url, { logoutDeviceOf: ALICE }))
    expectPrompt(logout, beforeLogout)
    expect(logout.waited.body.isConnected).toBe(false)
    await clearFaults(world.sandbox.url)
    await waitForSession(gateway, session, s => s.qrcode !== '', { timeoutMs: 60_000 })

    // deleted while waited on: 404 session not found
    const current = (await ask(world.gw.url, session)).etag!
    const deleted = ask(world.gw.url, session, current, 30)
    await parked(world.gw.url, 1)
    expect((await world.gw.call('DELETE', '/session', session)).status).toBe(200)
    expect(await deleted).toMatchObject({ status: 404, body: { statusCode: 404, message: 'session not found' } })
    expect(await waiting(world.gw.url)).toBe(0)
  }, 240_000)

  it("ends with 304 and the state's ETag when nothing changed; a stale ETag is answered at once", async () => {
    const session = await newSessionWithQr()
    const now = await ask(world.gw.url, session)
    const started = performance.now()
    const unchanged = await ask(world.gw.url, session, now.etag!, 1)
    expect(unchanged).toMatchObject({ status: 304, etag: now.etag, body: undefined })
    expect(unchanged.at - started).toBeGreaterThanOrEqual(950) // it did wait its second

    const asked = performance.now()
    const stale = await ask(world.gw.url, session, '"not-the-current-one"', 30)
    expect(stale.status).toBe(200)
    expect(stale.etag).toBe((await ask(world.gw.url, session)).etag)
    expect(stale.at - asked).toBeLessThan(5_000) // at once, not after its 30 s
  })

  it('answers 429 past each bound, with Retry-After, and leaves the neighbours and plain polls alone', async () => {
    const [s1, s2, s3] = [await newSessionWithQr(), await newSessionWithQr(), await newSessionWithQr()]
    const a = { 'x-forwarded-for': '198.51.100.1' }
    const b = { 'x-forwarded-for': '198.51.100.2' }
    const etag = async (s: Session) => (await ask(world.gw.url, s)).etag!
    const held = [ask(world.gw.url, s1, await etag(s1), 30, a), ask(world.gw.url, s1, await etag(s1), 30, a)]
    await parked(world.gw.url, 2)
    const perSession = await ask(world.gw.url, s1, await etag(s1), 30, b)
    expect(perSession).toMatchObject({
      status: 429,
      body: { statusCode: 429, message: 'too many waiting requests for this session (2), retry in 2 s' },
    })
    held.push(ask(world.gw.url, s2, await etag(s2), 30, a))
    await parked(world.gw.url, 3)
    const perClient = await ask(world.gw.url, s3, await etag(s3), 30, a)
    expect(perClient.body).toEqual({
      statusCode: 429,
      message: 'too many waiting requests from this client (3), retry in 2 s',
    })
    // another client still gets in, up to what the process holds
    held.push(ask(world.gw.url, s2, await etag(s2), 30, b))
    await parked(world.gw.url, 4)
    const perProcess = await fetch(`${world.gw.url}/session?wait=30`, {
      headers: { ...auth(s3), ...b, 'if-none-match': await etag(s3) },
    })
    expect(perProcess.status).toBe(429)
    expect(perProcess.headers.get('retry-after')).toBe('2')
    expect(await perProcess.json()).toEqual({
      statusCode: 429,
      message: 'too many waiting requests on this server, retry in 2 s',
    })
    // a plain GET /session is never refused
    expect((await ask(world.gw.url, s3, undefined, undefined, a)).status).toBe(200)
    for (const s of [s1, s2, s3]) expect((await world.gw.call('DELETE', '/session', s)).status).toBe(200)
    expect((await Promise.all(held)).map(r => r.status)).toEqual([404, 404, 404, 404])
  })

  it('frees the slot of a client that hangs up at once', async () => {
    const session = await newSessionWithQr()
    const { etag } = await ask(world.gw.url, session)
    const controllers = [new AbortController(), new AbortController()]
    const hungUp = controllers.map(c =>
      fetch(`${world.gw.url}/session?wait=30`, {
        headers: { ...auth(session), 'if-none-match': etag! },
        signal: c.signal,
      }).catch(() => 'aborted'),
    )
    await parked(world.gw.url, 2)
    expect((await ask(world.gw.url, session, etag!, 30)).status).toBe(429)
    for (const c of controllers) c.abort()
    expect(await Promise.all(hungUp)).toEqual(['aborted', 'aborted'])
    await parked(world.gw.url, 0)
    // both slots are free again, long before the 30 s waits would have ended
    const again = [ask(world.gw.url, session, etag!, 30), ask(world.gw.url, session, etag!, 30)]
    await parked(world.gw.url, 2)
    expect((await world.gw.call('DELETE', '/session', session)).status).toBe(200)
    expect((await Promise.all(again)).map(r => r.status)).toEqual([404, 404])
  })
})

describe('SIGTERM', () => {
  it('answers every waiting request at once with the current state, and the gateway stops', async () => {
    const dataDir = `${world.dataDir}-sigterm`
    const proc = await startGateway({ SANDBOX_URL: world.sandbox.url, DATA_DIR: dataDir })
    const s = (await (await fetch(`${proc.url}/session`, { method: 'POST' })).json()) as Session
    await waitForSession(createGatewayClient(proc.url), s, b => b.qrcode !== '', { timeoutMs: 60_000 })
    const { etag } = await ask(proc.url, s)
    const waits = [ask(proc.url, s, etag!, 30), ask(proc.url, s, etag!, 30)]
    await parked(proc.url, 2)
    const signalled = performance.now()
    const stopped = proc.stop('SIGTERM')
    const answers = await Promise.all(waits)
    for (const answer of answers) {
      // the same state (the session is still there, untouched): 304, and the connection closes after it
      expect(answer).toMatchObject({ status: 304, etag, connection: 'close' })
      expect(answer.at - signalled).toBeLessThan(5_000) // not at the end of its 30 s
    }
    expect(await stopped).toBe(0)
    rmSync(dataDir, { recursive: true, force: true })
  }, 60_000)
})
