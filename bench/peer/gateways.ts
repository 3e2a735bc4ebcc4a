/**
 * The two gateways as the side-by-side driver sees them: pair a phone, count the connected sessions, send a text.
 * Ours through its HTTP API (the spec's endpoints; pairing watched with the waiting GET /session, so the driver
 * learns of each QR and of the link the moment the gateway has them). The peer through its own API
 * (fazer-ai/baileys-api: `POST /connections/+<phone>`, `.../send-message`, an `x-api-key`), which tells of QR codes
 * and connection states only by webhook: a sink on loopback takes them, one URL per phone.
 */
import http from 'node:http'
import { createGatewayClient, waitForSession } from '../../src/client/index.js'
import { headersOf, scan } from '../lib/sessions.js'
import { settings } from './driver-settings.js'

export interface PairedSession {
  phone: string
  id?: string
  sessionId?: string
}

export interface SideGateway {
  pair(phone: string): Promise<PairedSession>
  connectedCount(sessions: PairedSession[]): Promise<number>
  /** The answer's status, and the message id a 2xx carried. */
  send(session: PairedSession, to: string, text: string): Promise<{ status: number; id?: string }>
  close(): void
}

const PAIR_TIMEOUT_MS = 180_000
/** A request and its answer's text; fetch keeps its connections alive, so the burst opens no socket per send. */
async function request(method: string, url: string, headers: Record<string, string> = {}, body?: unknown) {
  const res = await fetch(url, {
    method,
    headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(60_000),
  })
  return { status: res.status, text: await res.text() }
}

const idOf = (text: string, pick: (body: any) => unknown): string | undefined => {
  try {
    const id = pick(JSON.parse(text))
    return typeof id === 'string' ? id : undefined
  } catch {
    return undefined
  }
}

export function ourGateway(): SideGateway {
  const client = createGatewayClient(settings.GATEWAY_URL)
  return {
    async pair(phone) {
      const { data: session, error } = await client.POST('/session')
      if (!session) throw new Error(`POST /session: ${error?.message}`)
      const { qrcode } = await waitForSession(client, session, s => s.qrcode !== '', { timeoutMs: PAIR_TIMEOUT_MS })
      await scan(settings.SANDBOX_URL, qrcode, phone)
      await waitForSession(client, session, s => s.isConnected, { timeoutMs: PAIR_TIMEOUT_MS })
      return { phone, ...session }
    },
    async connectedCount(sessions) {
      let connected = 0
      for (const s of sessions) {
        const r = await request('GET', `${settings.GATEWAY_URL}/session`, headersOf(s as Required<PairedSession>))
        if (r.status === 200 && idOf(r.text, b => (b.isConnected ? 'yes' : undefined))) connected++
      }
      return connected
    },
    async send(s, to, text) {
      const headers = headersOf(s as Required<PairedSession>)
      const r = await request('POST', `${settings.GATEWAY_URL}/message`, headers, { phone: to, type: 'text', text })
      return { status: r.status, id: r.status === 200 ? idOf(r.text, b => b.messageId) : undefined }
    },
    close: () => {},
  }
}

interface PeerState {
  qr?: string
  qrSeq: number
  connection?: string
  listeners: Set<() => void>
}

export async function peerGateway(): Promise<SideGateway & { webhookEvents: Record<string, number> }> {
  if (!settings.API_KEY) throw new Error('API_KEY is required for the peer (run-all.sh makes one)')
  const headers = { 'x-api-key': settings.API_KEY }
  const states = new Map<string, PeerState>()
  const stateOf = (phone: string) => {
    let st = states.get(phone)
    if (!st) states.set(phone, (st = { qrSeq: 0, listeners: new Set() }))
    return st
  }
  const webhookEvents: Record<string, number> = {}
  const sink = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', c => chunks.push(c))
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}')
      let body: { event?: string; data?: { qrDataUrl?: string; connection?: string } }
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'))
      } catch {
        return
      }
      const event = body.event ?? 'unknown'
      webhookEvents[event] = (webhookEvents[event] ?? 0) + 1
      if (event !== 'connection.update') return
      const st = stateOf((req.url ?? '').split('/').pop() ?? '')
      if (body.data?.qrDataUrl) {
        st.qr = body.data.qrDataUrl
        st.qrSeq++
      }
      if (body.data?.connection) st.connection = body.data.connection
      for (const listener of st.listeners) listener()
    })
  })
  await new Promise<void>(resolve => sink.listen(settings.SINK_PORT, '127.0.0.1', resolve))

  const until = <T>(phone: string, pick: (st: PeerState) => T | undefined, what: string) =>
    new Promise<T>((resolve, reject) => {
      const st = stateOf(phone)
      const check = () => {
        const value = pick(st)
        if (value === undefined) return
        done()
        resolve(value)
      }
      const timer = setTimeout(() => {
        done()
        reject(new Error(`timed out waiting for ${what}`))
      }, PAIR_TIMEOUT_MS)
      const done = () => {
        clearTimeout(timer)
        st.listeners.delete(check)
      }
      st.listeners.add(check)
      check()
    })

  return {
    webhookEvents,
    async pair(phone) {
      const seen = stateOf(phone).qrSeq
      const webhookUrl = `http://127.0.0.1:${settings.SINK_PORT}/wh/${phone}`
      const body = { webhookUrl, webhookVerifyToken: 'bench-token', includeMedia: false }
      const r = await request('POST', `${settings.GATEWAY_URL}/connections/+${phone}`, headers, body)
      if (r.status < 200 || r.status >= 300) throw new Error(`POST /connections/+${phone}: ${r.status} ${r.text}`)
      const qr = await until(phone, st => (st.qrSeq > seen ? st.qr : undefined), `a QR for ${phone}`)
      await scan(settings.SANDBOX_URL, qr.replace(/^data:image\/png;base64,/, ''), phone)
      await until(phone, st => (st.connection === 'open' ? true : undefined), `${phone} connected`)
      return { phone }
    },
    async connectedCount(sessions) {
      return sessions.filter(s => stateOf(s.phone).connection === 'open').length
    },
    async send(s, to, text) {
      const url = `${settings.GATEWAY_URL}/connections/+${s.phone}/send-message`
      const r = await request('POST', url, headers, { jid: `${to}@s.whatsapp.net`, messageContent: { text } })
      const ok = r.status >= 200 && r.status < 300
      return { status: r.status, id: ok ? idOf(r.text, b => b.data?.key?.id) : undefined }
    },
    close: () => sink.close(),
  }
}
