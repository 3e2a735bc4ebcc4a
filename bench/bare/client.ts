/**
 * @module bench/bare/client
 * The floor under the gateway's CPU per message: the same Baileys sends with no gateway around them. One
 * process pairs N sockets with the sandbox (in-memory keys, no store, no threads, no HTTP), then runs LOOPS send loops
 * for SEND_S seconds and prints one JSON line: pairing time, acks, CPU per acked message, latency, the sandbox's
 * privacy-token issuances per send, how many acked texts reached the recipients' inboxes, RSS.
 *
 * Each send is what the gateway's `sendMessage` does for a text to a phone number (link/messages.ts): the contact's
 * LID when Baileys knows one, `sendMessage` with our own id, wait for the server's ack of that id, then record the
 * privacy-token issuance (link/tc-token.ts, taken from the gateway's build) so that the next send does not issue
 * it again. With BARE_GATEWAY_PATCHES=1 (Node) the gateway's patch inventory is installed first, as a shard does.
 *
 * Offered load: RATE > 0 paces the loops so that the n-th send of the burst starts no earlier than n ÷ RATE
 * seconds in (each loop still waits for its own ack before it sends again); every runtime, and the gateway
 * (TARGET=gateway: the same loops through `POST /message`, `./gateway-target.ts`), is then measured at the same
 * throughput, since CPU per message depends on it. RATE=0: closed loops, as fast as each goes.
 *
 * Why no static imports from the project: the file runs unchanged on Node (type stripping) and on Bun; what it takes
 * from the gateway comes from its build (`dist/`, `npm run build`), loaded at run time, and its key store is the
 * tests' (test/support/memory-keys.ts, type imports only) and its count of delivered texts bench:lean's
 * (../lib/delivered.ts, no imports), each loaded by its path.
 * Env: SANDBOX_URL (required), TARGET=baileys|gateway, BARE_GATEWAY_PATCHES=1, N=20, LOOPS=20, SEND_S=15, RATE=0,
 * PHONE_BASE=15550310000, CONTACT_BASE=15550000100 (loop k writes to CONTACT_BASE + k, as the peer bench's distinct
 * mode does); for TARGET=gateway also GATEWAY_URL and GATEWAY_PID.
 */
import https from 'node:https'
import type { AuthenticationState, BinaryNode, proto, WASocket } from '@whiskeysockets/baileys'
import pino from 'pino'
import type { Target } from './target.js'

const env = (name: string, fallback: number): number => Number(process.env[name] ?? fallback)
const SANDBOX_URL = process.env.SANDBOX_URL ?? ''
const N = env('N', 20)
const LOOPS = Math.min(env('LOOPS', 20), N)
const SEND_S = env('SEND_S', 15)
const RATE = env('RATE', 0)
const PHONE_BASE = env('PHONE_BASE', 15550310000)
const CONTACT_BASE = env('CONTACT_BASE', 15550000100)
if (!SANDBOX_URL) throw new Error('SANDBOX_URL is required')
const dist = (file: string) => new URL(`../../dist/${file}`, import.meta.url).href
const sleep = (ms: number) => new Promise(resolve => setTimeout(resolve, ms))
const contactPhone = (k: number) => String(CONTACT_BASE + k)

async function baileysTarget(): Promise<Target> {
  if (process.env.BARE_GATEWAY_PATCHES === '1') {
    // before Baileys loads, as a shard thread does (platform/baileys/module.ts)
    const { installPlatformPatches } = await import(dist('platform/baileys/patches/inventory.js'))
    installPlatformPatches()
  }
  const baileys = await import('@whiskeysockets/baileys')
  const { markTcTokenIssued } = (await import(dist('platform/baileys/link/tc-token.js'))) as {
    markTcTokenIssued: (sock: WASocket, jid: string, message: proto.IMessage | null | undefined) => Promise<boolean>
  }
  const { default: makeWASocket, Browsers, generateMessageIDV2, initAuthCreds, jidNormalizedUser } = baileys

  // Keys in plain maps, the cheapest store there is, so the figure is Baileys' own cost (loaded by path, see its file)
  const { memoryKeys } = (await import(
    new URL('../../test/support/memory-keys.ts', import.meta.url).href
  )) as typeof import('../../test/support/memory-keys.js')
  const memoryAuth = (): AuthenticationState => ({ creds: initAuthCreds(), keys: memoryKeys() })

  const trust = (await (await fetch(`${SANDBOX_URL}/trust`)).json()) as {
    wsUrl: string
    rootPublicKey: string
    caCert: string
  }
  baileys.WA_CERT_DETAILS.PUBLIC_KEY = Buffer.from(trust.rootPublicKey, 'base64')
  const silent = pino({ level: 'silent' })

  /** A socket that resolves `done` with 200 once logged in, or with the close code (515 after a scan). */
  function connect(auth: AuthenticationState) {
    const sock = makeWASocket({
      auth,
      logger: silent,
      waWebSocketUrl: trust.wsUrl,
      browser: Browsers.macOS('Chrome'),
      fetchAgent: new https.Agent({ ca: trust.caCert }),
      markOnlineOnConnect: false,
      syncFullHistory: false,
    })
    sock.ev.on('creds.update', update => Object.assign(auth.creds, update))
    let onQr: (qr: string) => void = () => {}
    let onDone: (code: number) => void = () => {}
    const qr = new Promise<string>(resolve => (onQr = resolve))
    const done = new Promise<number>(resolve => (onDone = resolve))
    sock.ev.on('connection.update', u => {
      if (u.qr) onQr(u.qr)
      if (u.connection === 'open') onDone(200)
      if (u.connection === 'close') {
        const err = u.lastDisconnect?.error as { output?: { statusCode?: number } } | undefined
        onDone(err?.output?.statusCode ?? 0)
      }
    })
    return { sock, qr, done }
  }

  async function pair(phone: string): Promise<WASocket> {
    const auth = memoryAuth()
    const first = connect(auth)
    const scan = await fetch(`${SANDBOX_URL}/scan`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ qr: await first.qr, phone }),
    })
    if (!scan.ok) throw new Error(`scan ${phone}: ${scan.status} ${await scan.text()}`)
    const restart = await first.done
    if (restart !== 515) throw new Error(`${phone}: expected the 515 restart, got ${restart}`)
    const second = connect(auth)
    const opened = await second.done
    if (opened !== 200) throw new Error(`${phone}: closed with ${opened} before it opened`)
    return second.sock
  }

  /** The gateway's 1:1 send (link/messages.ts): LID when known, our id, the server's ack, then the token record. */
  async function sendAcked(sock: WASocket, phone: string, text: string): Promise<string> {
    const pn = `${phone}@s.whatsapp.net`
    const lid = await sock.signalRepository.lidMapping.getLIDForPN(pn)
    const jid = lid ? jidNormalizedUser(lid) : pn
    const messageId = generateMessageIDV2(sock.user?.id)
    let onAck: (node: BinaryNode) => void = () => {}
    const acked = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no ack in 30 s')), 30_000)
      onAck = node => {
        if (node.attrs.id !== messageId) return
        clearTimeout(timer)
        if (node.attrs.error) reject(new Error(`rejected ${node.attrs.error}`))
        else resolve()
      }
    })
    sock.ws.on('CB:ack,class:message', onAck)
    try {
      const sent = await sock.sendMessage(jid, { text }, { messageId })
      await acked
      await markTcTokenIssued(sock, jid, sent?.message)
    } finally {
      sock.ws.off('CB:ack,class:message', onAck)
    }
    return messageId
  }

  const pairStart = performance.now()
  const sockets: WASocket[] = new Array(N)
  let next = 0
  await Promise.all(
    Array.from({ length: Math.min(5, N) }, async () => {
      while (next < N) {
        const i = next++
        sockets[i] = await pair(String(PHONE_BASE + i))
      }
    }),
  )
  const isBun = typeof (globalThis as { Bun?: unknown }).Bun !== 'undefined'
  return {
    runtime: isBun
      ? `bun ${(globalThis as unknown as { Bun: { version: string } }).Bun.version}`
      : `node ${process.version}${process.env.BARE_GATEWAY_PATCHES === '1' ? ' + the gateway’s patches' : ''}`,
    pairSeconds: (performance.now() - pairStart) / 1000,
    send: (k, text) => sendAcked(sockets[k]!, contactPhone(k), text),
    cpu: () => {
      const c = process.cpuUsage()
      return { ms: (c.user + c.system) / 1000 }
    },
    rssMb: () => process.memoryUsage().rss / 1048576,
    close: () => {
      for (const sock of sockets) sock.end(undefined)
    },
  }
}

// the count of delivered texts is bench:lean's (loaded by path, see the top of this file)
const { deliveredOf } = (await import(
  new URL('../lib/delivered.ts', import.meta.url).href
)) as typeof import('../lib/delivered.js')

const privacyTokenIssues = async (): Promise<number> =>
  ((await (await fetch(`${SANDBOX_URL}/stats`)).json()) as { privacyTokenIssues?: number }).privacyTokenIssues ?? 0

const target: Target =
  process.env.TARGET === 'gateway'
    ? await (await import('./gateway-target.js')).gatewayTarget({
        sandboxUrl: SANDBOX_URL,
        n: N,
        phoneBase: PHONE_BASE,
        contactPhone,
      })
    : await baileysTarget()
await sleep(5000) // the first login's history and app-state sync settles
// warm-up: the first message to a contact fetches its devices, sets up a Signal session and issues the token
await Promise.all(Array.from({ length: LOOPS }, (_, k) => target.send(k, `warm-up ${k}`)))
await sleep(2000)

const latencies: number[] = []
const sent = new Map<string, string[]>()
let failed = 0
const tokens0 = await privacyTokenIssues()
const cpu0 = target.cpu()
/** The burst on the monotonic clock every process reads (a `--cpu-prof` profile's sample times): µs. */
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n)
const burstFromUs = monotonicUs()
const t0 = performance.now()
const end = t0 + SEND_S * 1000
let started = 0
await Promise.all(
  Array.from({ length: LOOPS }, async (_, k) => {
    for (let i = 0; ; i++) {
      // paced: the n-th send of the burst starts no earlier than n ÷ RATE s in
      if (RATE > 0) {
        const due = t0 + (started++ * 1000) / RATE
        if (due > performance.now()) await sleep(due - performance.now())
      }
      const at = performance.now()
      if (at >= end) return
      try {
        const id = await target.send(k, `bare ${k}.${i}`)
        latencies.push(performance.now() - at)
        sent.set(contactPhone(k), [...(sent.get(contactPhone(k)) ?? []), id])
      } catch {
        failed++
      }
    }
  }),
)
const seconds = (performance.now() - t0) / 1000
await sleep(1000) // what the last acks set off (receipts, commits) belongs to the burst
const cpu1 = target.cpu()
const burstToUs = monotonicUs()
const tokens = (await privacyTokenIssues()) - tokens0
const delivered = await deliveredOf(SANDBOX_URL, sent, latencies.length, 30, 1)
latencies.sort((a, b) => a - b)
const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((latencies.length * p) / 100))] ?? 0
const per = (ms: number) => Number((ms / Math.max(1, latencies.length)).toFixed(3))
console.log(
  JSON.stringify({
    runtime: target.runtime,
    sessions: N,
    loops: LOOPS,
    rate: RATE,
    pairSeconds: Number(target.pairSeconds.toFixed(2)),
    acked: latencies.length,
    failed,
    delivered,
    ackedPerSecond: Number((latencies.length / seconds).toFixed(1)),
    cpuMsPerAcked: per(cpu1.ms - cpu0.ms),
    ...(cpu1.byThread
      ? {
          byThread: Object.fromEntries(
            Object.entries(cpu1.byThread).map(([kind, ms]) => [kind, per(ms - (cpu0.byThread?.[kind] ?? 0))]),
          ),
        }
      : {}),
    privacyTokenIssuesPerSend: Number((tokens / Math.max(1, latencies.length)).toFixed(4)),
    p50Ms: Number(pct(50).toFixed(1)),
    p95Ms: Number(pct(95).toFixed(1)),
    rssMb: Number(target.rssMb().toFixed(1)),
    burstUs: [burstFromUs, burstToUs],
  }),
)
target.close()
process.exit(0)
