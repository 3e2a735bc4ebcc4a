/**
 * @module test/support/system/baileys-client
 * Drives the unmodified Baileys client against a sandbox: in-memory auth (no files), a socket factory configured
 * from GET /trust, and small wait helpers that poll instead of sleeping.
 */
import https from 'node:https'
import makeWASocket, { Browsers, initAuthCreds, WA_CERT_DETAILS } from '@whiskeysockets/baileys'
import type {
  AuthenticationCreds,
  AuthenticationState,
  ConnectionState,
  Contact,
  UserFacingSocketConfig,
  WASocket,
} from '@whiskeysockets/baileys'
import pino from 'pino'
import { silenceLibsignalChatter } from '../../../src/sandbox/index.js'
import { memoryKeys } from '../memory-keys.js'

silenceLibsignalChatter()

export interface Trust {
  wsUrl: string
  rootPublicKey: string
  caCert: string
}

/** Auth state kept in memory: fresh creds and the key store of ../memory-keys.ts. */
export function memoryAuth(): { state: AuthenticationState; creds: AuthenticationCreds } {
  const creds = initAuthCreds()
  return { state: { creds, keys: memoryKeys() }, creds }
}

export async function fetchTrust(baseUrl: string): Promise<Trust> {
  const res = await fetch(`${baseUrl}/trust`)
  return (await res.json()) as Trust
}

export interface TestSocket {
  sock: WASocket
  updates: Partial<ConnectionState>[]
  /** contacts.upsert / contacts.update payloads, recorded from socket creation (the first sync can beat `open`). */
  contacts: Partial<Contact>[]
  /** Resolves with the first QR string. */
  qr(): Promise<string>
  /** Resolves when the socket opens; rejects if it closes first. */
  opened(): Promise<void>
  /** Resolves with the close error's status code and message. */
  closed(): Promise<{ statusCode: number | undefined; message: string }>
  end(): void
}

/** A Baileys socket pointed at the sandbox, as the gateway configures it when SANDBOX_URL is set. */
export function connect(
  trust: Trust,
  auth: { state: AuthenticationState },
  extra: Partial<UserFacingSocketConfig> = {},
): TestSocket {
  WA_CERT_DETAILS.PUBLIC_KEY = Buffer.from(trust.rootPublicKey, 'base64')
  const sock = makeWASocket({
    auth: auth.state,
    logger: pino({ level: 'silent' }),
    waWebSocketUrl: trust.wsUrl,
    browser: Browsers.macOS('Chrome'),
    fetchAgent: new https.Agent({ ca: trust.caCert }),
    markOnlineOnConnect: false,
    ...extra,
  })
  sock.ev.on('creds.update', update => Object.assign(auth.state.creds, update))
  const updates: Partial<ConnectionState>[] = []
  const contacts: Partial<Contact>[] = []
  sock.ev.on('contacts.upsert', list => contacts.push(...list))
  sock.ev.on('contacts.update', list => contacts.push(...list))
  const waiters: (() => void)[] = []
  sock.ev.on('connection.update', update => {
    updates.push(update)
    for (const w of waiters.splice(0)) w()
  })
  /** Resolves with `pick()` once it is defined, checked at each connection.update (events, not polling). */
  const nextUpdate = <T>(pick: () => T | undefined, timeoutMs = 60_000): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('timed out waiting for connection.update')), timeoutMs)
      const check = (): void => {
        const value = pick()
        if (value !== undefined) {
          clearTimeout(timer)
          resolve(value)
        } else waiters.push(check)
      }
      check()
    })
  const closeInfo = (): { statusCode: number | undefined; message: string } | undefined => {
    const close = updates.find(u => u.connection === 'close')
    if (!close) return undefined
    const err = close.lastDisconnect?.error as (Error & { output?: { statusCode?: number } }) | undefined
    return { statusCode: err?.output?.statusCode, message: err?.message ?? '' }
  }
  return {
    sock,
    updates,
    contacts,
    qr: () => nextUpdate(() => updates.find(u => u.qr)?.qr),
    opened: () =>
      nextUpdate(() => {
        if (updates.some(u => u.connection === 'open')) return true
        const closed = closeInfo()
        if (closed) throw new Error(`closed before open: ${closed.statusCode} ${closed.message}`)
        return undefined
      }).then(() => undefined),
    closed: () => nextUpdate(closeInfo),
    end: () => sock.end(undefined),
  }
}

export async function postJson(url: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  return { status: res.status, body: (await res.json()) as Record<string, unknown> }
}

export async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url)
  return (await res.json()) as T
}

/** Registration → QR → scan → 515 → second socket → open. Returns the logged-in socket. */
export async function pairAndLogin(
  baseUrl: string,
  trust: Trust,
  phone: string,
  extra: Partial<UserFacingSocketConfig> = {},
): Promise<{
  socket: TestSocket
  auth: ReturnType<typeof memoryAuth>
  timings: { qrMs: number; scanToOpenMs: number }
}> {
  const auth = memoryAuth()
  const started = Date.now()
  const first = connect(trust, auth, extra)
  const qr = await first.qr()
  const qrMs = Date.now() - started
  const scanAt = Date.now()
  const scan = await postJson(`${baseUrl}/scan`, { qr, phone })
  if (scan.status !== 200) throw new Error(`scan failed: ${JSON.stringify(scan.body)}`)
  const closed = await first.closed()
  if (closed.statusCode !== 515) throw new Error(`expected 515 restart, got ${closed.statusCode} ${closed.message}`)
  const socket = connect(trust, auth, extra)
  await socket.opened()
  return { socket, auth, timings: { qrMs, scanToOpenMs: Date.now() - scanAt } }
}
