/**
 * @module bench/bare/client
 * The floor under the gateway's CPU per message: the same Baileys, with no gateway around it. One process pairs N
 * sockets with the sandbox (in-memory keys, no store, no threads, no HTTP), then runs LOOPS closed loops of text
 * messages for SEND_S seconds, each waiting for the server's ack as the gateway does before it answers, and prints
 * one JSON line: pairing time, acks, CPU per acked message, latency, RSS.
 *
 * Why a file of its own, with no imports from the project: it runs unchanged on Node (type stripping) and on Bun, so
 * `bench/bare-baileys.ts` can split the gateway-vs-peer gap into what the runtime costs and what the gateway adds.
 * Env: SANDBOX_URL (required), BARE_GATEWAY_PATCHES=1 (Node under tsx: the gateway's patches to Baileys first), N=20, LOOPS=20, SEND_S=15, PHONE_BASE=15550310000, CONTACT_BASE=15550000100 (loop k
 * writes to CONTACT_BASE + k, as the peer bench's distinct mode does).
 */
import https from 'node:https'
import type { AuthenticationState, BinaryNode, SignalDataTypeMap, WASocket } from '@whiskeysockets/baileys'
import pino from 'pino'

const env = (name: string, fallback: number): number => Number(process.env[name] ?? fallback)
const SANDBOX_URL = process.env.SANDBOX_URL ?? ''
const N = env('N', 20)
const LOOPS = Math.min(env('LOOPS', 20), N)
const SEND_S = env('SEND_S', 15)
const PHONE_BASE = env('PHONE_BASE', 15550310000)
const CONTACT_BASE = env('CONTACT_BASE', 15550000100)
if (!SANDBOX_URL) throw new Error('SANDBOX_URL is required')

if (process.env.BARE_GATEWAY_PATCHES === '1') {
  // The gateway's own patches to Baileys' hot paths (Node only, under tsx), so that the runner can tell what they
  // save from what the gateway adds; installed before Baileys loads, as the shard threads do (module.ts).
  const { installSourcePatches } = await import('../../src/platform/baileys/patches/source-hook.js')
  const { timeoutHelpersPatch } = await import('../../src/platform/baileys/patches/timeout-helpers.js')
  const { messageIdPatch } = await import('../../src/platform/baileys/patches/message-id.js')
  const { installCryptoKeyObjects } = await import('../../src/platform/baileys/patches/crypto-keys.js')
  installSourcePatches([timeoutHelpersPatch, messageIdPatch])
  installCryptoKeyObjects()
}
// loaded after the patches (a static import would load Baileys before the load hook is in place)
const {
  default: makeWASocket,
  Browsers,
  generateMessageIDV2,
  initAuthCreds,
  WA_CERT_DETAILS,
} = await import('@whiskeysockets/baileys')

interface Trust {
  wsUrl: string
  rootPublicKey: string
  caCert: string
}

/**
 * Keys in plain maps: the cheapest store there is, so the figure is Baileys' own cost. The same as the system
 * tests' `memoryAuth` (test/support/system/baileys-client.ts), copied: this file imports nothing from the project,
 * so that Bun and Node run it as it is.
 */
function memoryAuth(): AuthenticationState {
  const store = new Map<string, Map<string, unknown>>()
  return {
    creds: initAuthCreds(),
    keys: {
      get: async <T extends keyof SignalDataTypeMap>(type: T, ids: string[]) => {
        const out: { [id: string]: SignalDataTypeMap[T] } = {}
        for (const id of ids) {
          const value = store.get(type)?.get(id)
          if (value !== undefined) out[id] = value as SignalDataTypeMap[T]
        }
        return out
      },
      set: async data => {
        for (const [type, entries] of Object.entries(data)) {
          let bucket = store.get(type)
          if (!bucket) store.set(type, (bucket = new Map()))
          for (const [id, value] of Object.entries(entries ?? {})) {
            if (value === null || value === undefined) bucket.delete(id)
            else bucket.set(id, value)
          }
        }
      },
    },
  }
}

const silent = pino({ level: 'silent' })

/** A socket that resolves `open` once logged in, or `restart` with the close code (515 after a scan). */
function connect(
  trust: Trust,
  auth: AuthenticationState,
): { sock: WASocket; qr: Promise<string>; done: Promise<number> } {
  const sock = makeWASocket({
    auth,
    logger: silent,
    waWebSocketUrl: trust.wsUrl,
    browser: Browsers.macOS('Chrome'),
    fetchAgent: new https.Agent({ ca: trust.caCert }),
    markOnlineOnConnect: false,
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

async function pair(trust: Trust, phone: string): Promise<WASocket> {
  const auth = memoryAuth()
  const first = connect(trust, auth)
  const scan = await fetch(`${SANDBOX_URL}/scan`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ qr: await first.qr, phone }),
  })
  if (!scan.ok) throw new Error(`scan ${phone}: ${scan.status} ${await scan.text()}`)
  const restart = await first.done
  if (restart !== 515) throw new Error(`${phone}: expected the 515 restart, got ${restart}`)
  const second = connect(trust, auth)
  const opened = await second.done
  if (opened !== 200) throw new Error(`${phone}: closed with ${opened} before it opened`)
  return second.sock
}

/** Sends one text and resolves on the server's ack of its id (registered before the stanza goes out). */
function sendAcked(sock: WASocket, jid: string, text: string): Promise<void> {
  const messageId = generateMessageIDV2(sock.user?.id)
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => finish(new Error('no ack in 30 s')), 30_000)
    const onAck = (node: BinaryNode) => {
      if (node.attrs.id === messageId) finish(node.attrs.error ? new Error(`rejected ${node.attrs.error}`) : undefined)
    }
    function finish(err?: Error): void {
      clearTimeout(timer)
      sock.ws.off('CB:ack,class:message', onAck)
      if (err) reject(err)
      else resolve()
    }
    sock.ws.on('CB:ack,class:message', onAck)
    sock.sendMessage(jid, { text }, { messageId }).catch(finish)
  })
}

const trust = (await (await fetch(`${SANDBOX_URL}/trust`)).json()) as Trust
WA_CERT_DETAILS.PUBLIC_KEY = Buffer.from(trust.rootPublicKey, 'base64')

const pairStart = performance.now()
const sockets: WASocket[] = new Array(N)
let next = 0
await Promise.all(
  Array.from({ length: Math.min(5, N) }, async () => {
    while (next < N) {
      const i = next++
      sockets[i] = await pair(trust, String(PHONE_BASE + i))
    }
  }),
)
const pairSeconds = (performance.now() - pairStart) / 1000
const sleep = (ms: number) => new Promise(resolve => setTimeout(resolve, ms))
await sleep(5000) // the first login's history and app-state sync settles
const contact = (k: number) => `${CONTACT_BASE + k}@s.whatsapp.net`
// warm-up: the first message to a contact fetches its devices and sets up a signal session
await Promise.all(Array.from({ length: LOOPS }, (_, k) => sendAcked(sockets[k]!, contact(k), `warm-up ${k}`)))
await sleep(2000)

const latencies: number[] = []
let failed = 0
const cpu0 = process.cpuUsage()
const t0 = performance.now()
const end = t0 + SEND_S * 1000
await Promise.all(
  Array.from({ length: LOOPS }, async (_, k) => {
    for (let i = 0; performance.now() < end; i++) {
      const started = performance.now()
      try {
        await sendAcked(sockets[k]!, contact(k), `bare ${k}.${i}`)
        latencies.push(performance.now() - started)
      } catch {
        failed++
      }
    }
  }),
)
const seconds = (performance.now() - t0) / 1000
const cpu = process.cpuUsage(cpu0)
const cpuMs = (cpu.user + cpu.system) / 1000
latencies.sort((a, b) => a - b)
const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((latencies.length * p) / 100))] ?? 0
console.log(
  JSON.stringify({
    runtime:
      typeof (globalThis as { Bun?: unknown }).Bun !== 'undefined'
        ? 'bun'
        : `node ${process.version}${process.env.BARE_GATEWAY_PATCHES === '1' ? ' + the gateway’s Baileys patches' : ''}`,
    sessions: N,
    loops: LOOPS,
    pairSeconds: Number(pairSeconds.toFixed(2)),
    acked: latencies.length,
    failed,
    ackedPerSecond: Number((latencies.length / seconds).toFixed(1)),
    cpuMsPerAcked: Number((cpuMs / Math.max(1, latencies.length)).toFixed(3)),
    p50Ms: Number(pct(50).toFixed(1)),
    p95Ms: Number(pct(95).toFixed(1)),
    rssMb: Number((process.memoryUsage().rss / 1048576).toFixed(1)),
  }),
)
for (const sock of sockets) sock.end(undefined)
process.exit(0)
