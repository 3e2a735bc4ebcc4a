/**
 * @module sandbox/control-api
 * The JSON control API on the sandbox's HTTP port (a fixed contract other tools depend on; additions only):
 * /trust, /stats, /devices, /scan, /link-code, /world, /accounts/{phone}/inbox|presence|lid|send|restrictions,
 * /channels/{id}/messages, /faults, /client-version.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { SandboxContext } from './context.js'
import type { ChannelStore } from './channels.js'
import { clientVersionPolicy, parseClientVersion } from './client-version.js'
import { dropSessionsOf, logoutDevicesOf } from './faults.js'
import { LinkCodeError } from './link-code.js'
import { ScanError } from './pairing.js'
import { sendFromPhone } from './phone-send.js'
import { RestrictionInputError } from './restrictions.js'
import type { Faults, WorldPatch } from './types.js'
import { parseWorldPatch, worldAccount } from './world.js'

export interface ControlApiDeps {
  ctx: SandboxContext
  scan(qr: string, phone: string): Promise<{ phone: string; device: number }>
  linkCode(phone: string, code: string): Promise<{ phone: string; device: number }>
  channels: ChannelStore
  trust(): { wsUrl: string; rootPublicKey: string; caCert: string; mediaHost: string; clientVersion: string }
  mergeWorld(patch: WorldPatch): void
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

const digits = (s: unknown): string => String(s ?? '').replace(/\D/g, '')

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  const text = Buffer.concat(chunks).toString('utf8')
  if (!text.trim()) return {}
  try {
    return JSON.parse(text)
  } catch {
    throw new HttpError(400, 'body is not valid JSON')
  }
}

export function makeControlApi(deps: ControlApiDeps): (req: IncomingMessage, res: ServerResponse) => void {
  const { ctx, channels } = deps

  const route = async (req: IncomingMessage): Promise<[number, unknown]> => {
    const url = new URL(req.url ?? '/', 'http://sandbox')
    const path = url.pathname.replace(/\/+$/, '') || '/'
    const method = req.method ?? 'GET'
    const parts = path.split('/').filter(Boolean).map(decodeURIComponent)

    if (method === 'GET' && path === '/trust') return [200, deps.trust()]
    if (method === 'GET' && path === '/health') return [200, { ok: true }]
    // Wire-level counters (picture queries and how many ran at once, channel-list query ids, …).
    if (method === 'GET' && path === '/stats') return [200, ctx.stats.snapshot()]
    // Per companion device: logins, 440 kicks, stanzas on superseded connections (what a session move looks like).
    if (method === 'GET' && path === '/devices') return [200, { devices: ctx.devices.list() }]
    // the platform moving on: older web clients are refused from the next login (client-version.ts)
    if (method === 'POST' && path === '/client-version') {
      const body = (await readJson(req)) as { min?: unknown } | null
      const min = typeof body?.min === 'string' ? parseClientVersion(body.min) : undefined
      if (!min) throw new HttpError(400, 'body needs { min: "a.b.c" }')
      ctx.clientVersion = clientVersionPolicy(min)
      return [200, { min: body?.min }]
    }
    if (method === 'POST' && path === '/scan') {
      const body = (await readJson(req)) as { qr?: unknown; phone?: unknown }
      const phone = digits(body.phone)
      if (typeof body.qr !== 'string' || !phone) throw new HttpError(400, 'body needs { qr: string, phone: digits }')
      try {
        return [200, await deps.scan(body.qr, phone)]
      } catch (err) {
        if (err instanceof ScanError) throw new HttpError(400, err.message)
        throw err
      }
    }
    if (method === 'POST' && path === '/link-code') {
      // the phone of account `phone` enters the code a device showed ("Link with phone number")
      const body = (await readJson(req)) as { phone?: unknown; code?: unknown }
      const phone = digits(body.phone)
      if (typeof body.code !== 'string' || !phone)
        throw new HttpError(400, 'body needs { phone: digits, code: string }')
      try {
        return [200, await deps.linkCode(phone, body.code)]
      } catch (err) {
        if (err instanceof LinkCodeError) throw new HttpError(400, err.message)
        throw err
      }
    }
    if (path === '/world') {
      if (method === 'GET') return [200, ctx.world()]
      if (method === 'POST') {
        try {
          deps.mergeWorld(parseWorldPatch(await readJson(req)))
        } catch (err) {
          if (err instanceof HttpError) throw err
          throw new HttpError(400, (err as Error).message)
        }
        return [200, ctx.world()]
      }
    }
    if (path === '/faults') {
      if (method === 'POST') {
        const body = (await readJson(req)) as Faults & { dropSessionOf?: unknown; logoutDeviceOf?: unknown }
        const persistent: Faults = {}
        if (body.rejectRecipient !== undefined) persistent.rejectRecipient = digits(body.rejectRecipient)
        if (body.rejectCode !== undefined) persistent.rejectCode = Number(body.rejectCode)
        if (body.delayMs !== undefined) persistent.delayMs = Math.max(0, Number(body.delayMs) || 0)
        if (body.delayAccount !== undefined) persistent.delayAccount = digits(body.delayAccount)
        if (body.wrongChainKey !== undefined) persistent.wrongChainKey = body.wrongChainKey === true
        if (body.wrongAccountSignature !== undefined)
          persistent.wrongAccountSignature = body.wrongAccountSignature === true
        if (body.strictChannelPosts !== undefined) persistent.strictChannelPosts = body.strictChannelPosts === true
        if (body.failDecryptOf !== undefined) persistent.failDecryptOf = digits(body.failDecryptOf)
        if (body.failDecryptCount !== undefined)
          persistent.failDecryptCount = Math.max(0, Math.floor(Number(body.failDecryptCount) || 0))
        if (body.retryAfterReconnect !== undefined) persistent.retryAfterReconnect = body.retryAfterReconnect === true
        if (body.holdLinkCodes !== undefined) persistent.holdLinkCodes = body.holdLinkCodes === true
        if (body.refuseAccount !== undefined) persistent.refuseAccount = digits(body.refuseAccount) || undefined
        // a positive code refuses every companion_hello with it; 0 or null turns the refusal off
        if (body.linkCodeError !== undefined) {
          const code = Math.floor(Number(body.linkCodeError))
          persistent.linkCodeError = code > 0 ? code : undefined
        }
        if (body.linkCodeTtlMs !== undefined)
          persistent.linkCodeTtlMs = Math.max(0, Math.floor(Number(body.linkCodeTtlMs) || 0))
        ctx.faults.set(persistent)
        const dropped = body.dropSessionOf ? dropSessionsOf(ctx.accounts, digits(body.dropSessionOf)) : 0
        const loggedOut = body.logoutDeviceOf ? logoutDevicesOf(ctx.accounts, digits(body.logoutDeviceOf)) : 0
        return [200, { faults: ctx.faults.current, dropped, loggedOut }]
      }
      if (method === 'DELETE') {
        ctx.faults.clear()
        return [200, { faults: {} }]
      }
      if (method === 'GET') return [200, { faults: ctx.faults.current }]
    }
    if (parts[0] === 'accounts' && parts.length === 3) {
      const phone = digits(parts[1])
      const account = ctx.accounts.get(phone)
      if (method === 'GET' && parts[2] === 'inbox') return [200, { messages: account?.inbox ?? [] }]
      if (method === 'GET' && parts[2] === 'presence') return [200, { events: account?.presence ?? [] }]
      // The account's LID JID (what LID-addressed groups list it as), for exact assertions on member ids.
      if (method === 'GET' && parts[2] === 'lid') {
        if (!account) throw new HttpError(404, 'unknown account')
        return [200, { phone, lid: account.lidJid }]
      }
      if (method === 'POST' && parts[2] === 'send') {
        // The simulated phone `phone` sends a text to `to` (every connected companion of `to` gets it).
        const body = (await readJson(req)) as { to?: unknown; text?: unknown; id?: unknown }
        const to = ctx.accounts.get(digits(body.to))
        if (typeof body.text !== 'string' || !to)
          throw new HttpError(400, 'body needs { to: known phone, text: string }')
        const sender = ctx.accounts.ensure(phone)
        const name = worldAccount(ctx.world(), phone)?.name
        const id = typeof body.id === 'string' ? body.id : undefined
        const delivered = await sendFromPhone(sender, to, { conversation: body.text }, { id, notify: name })
        ctx.restrictions.noteExchange(phone, to.phone)
        return [200, { delivered }]
      }
      // The account's reach-out timelock and new-chat cap (restrictions.ts), and how many new chats it refused.
      if (parts[2] === 'restrictions' && (method === 'GET' || method === 'POST')) {
        if (!phone) throw new HttpError(400, 'phone must be digits')
        if (method === 'POST') {
          try {
            ctx.restrictions.set(ctx.accounts, phone, await readJson(req))
          } catch (err) {
            if (err instanceof RestrictionInputError) throw new HttpError(400, err.message)
            throw err
          }
        }
        return [200, ctx.restrictions.view(phone)]
      }
    }
    if (method === 'GET' && parts[0] === 'channels' && parts.length === 3 && parts[2] === 'messages') {
      const channelId = parts[1] ?? ''
      if (!ctx.world().channels.some(c => c.id === channelId)) throw new HttpError(404, 'unknown channel')
      return [
        200,
        {
          messages: channels.list(channelId).map(p => ({
            id: p.id,
            serverId: p.serverId,
            type: p.type,
            created: new Date(p.t * 1000).toISOString(),
            ...(p.text !== undefined ? { text: p.text } : {}),
            ...(p.caption !== undefined ? { caption: p.caption } : {}),
            ...(p.media ? { media: p.media } : {}),
            ...(p.location ? { location: p.location } : {}),
            ...(p.contact ? { contact: p.contact } : {}),
            ...(p.error ? { error: p.error } : {}),
          })),
        },
      ]
    }
    throw new HttpError(404, `no route for ${method} ${path}`)
  }

  return (req, res) => {
    route(req).then(
      ([status, body]) => send(res, status, body),
      (err: unknown) => {
        if (err instanceof HttpError) return send(res, err.status, { error: err.message })
        ctx.logger.error({ err }, 'control API error')
        send(res, 500, { error: (err as Error).message ?? 'internal error' })
      },
    )
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body)
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) })
  res.end(text)
}
