/**
 * End-to-end harness: the platform sandbox and the real gateway process, driven over HTTP only, plus a local media
 * server. Shared by the system tests (test/system). Every gateway call goes through the typed client (src/client), whose
 * responses are validated against the OpenAPI document (./response-validator.ts).
 */
import { createHash } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { decodeQrPng } from '../../../src/demo/qr-decode.js'
import {
  startGateway,
  startSandbox,
  type GatewayProcess,
  type SandboxOptions,
  type SandboxProcess,
} from '../processes.js'
import {
  createGatewayClient,
  sessionHeaders,
  withSession,
  type GatewayClient,
  type SessionCredentials,
} from '../../../src/client/index.js'
import { documentValidator, validatingMiddleware, type RecordedResponse } from '../response-validator.js'
import { waitFor } from '../wait-for.js'
import { serveFiles } from '../loopback-server.js'

export { withSession }

export type Session = SessionCredentials

export const headersOf = sessionHeaders

/** A response as the tests read it: the status and the JSON body (the `data` of a 2xx, else the error body). */
export interface Reply {
  status: number
  body: any
}

/** Turns an openapi-fetch result into a `Reply`. */
export async function reply(call: Promise<{ data?: unknown; error?: unknown; response: Response }>): Promise<Reply> {
  const { data, error, response } = await call
  return { status: response.status, body: response.ok ? data : error }
}

export class Gateway {
  /** Every response this gateway gave the tests, in order (each one was validated against the document). */
  readonly responses: RecordedResponse[] = []
  /** The typed client; each response is checked against the OpenAPI document, a mismatch fails the call. */
  readonly api: GatewayClient
  constructor(readonly proc: GatewayProcess) {
    this.api = createGatewayClient(proc.url)
    this.api.use(validatingMiddleware(documentValidator(), this.responses))
  }
  get url() {
    return this.proc.url
  }
  /** Any request, including ones the types would refuse (missing headers, broken bodies, repeated query keys). */
  call(method: string, route: string, session?: Session, body?: unknown) {
    return this.raw(
      method,
      route,
      session ? headersOf(session) : {},
      body === undefined ? undefined : JSON.stringify(body),
    )
  }
  /** A request exactly as given: these headers, this body text (sent as is). Still through the validating client. */
  raw(method: string, route: string, headers: Record<string, string>, body?: string) {
    const request = this.api.request as (
      method: string,
      route: string,
      init: object,
    ) => ReturnType<GatewayClient['GET']>
    const init = { headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers }, body }
    return reply(request(method.toLowerCase(), route, { ...init, bodySerializer: (text: string) => text }))
  }
  async createSession(): Promise<Session> {
    const r = await reply(this.api.POST('/session'))
    if (r.status !== 200) throw new Error(`POST /session → ${r.status} ${JSON.stringify(r.body)}`)
    return r.body
  }
  session(s: Session) {
    return reply(this.api.GET('/session', withSession(s)))
  }
}

/**
 * The one sandbox world of a system test: a sandbox process (started with `sandboxOptions`) and a temp DATA_DIR, and
 * `world` (accounts, groups, channels) POSTed to its /world, merged into its built-in demo world.
 */
export async function startWorld(
  world?: object,
  sandboxOptions: SandboxOptions = {},
): Promise<{ sandbox: SandboxProcess; dataDir: string; cleanup(): Promise<void> }> {
  const sandbox = await startSandbox(undefined, undefined, sandboxOptions)
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'e2e-gateway-'))
  if (world) await postWorld(sandbox.url, world)
  return {
    sandbox,
    dataDir,
    async cleanup() {
      await sandbox.stop()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

export async function launchGateway(sandboxUrl: string, dataDir: string, env: Record<string, string> = {}) {
  return new Gateway(
    await startGateway({ SANDBOX_URL: sandboxUrl, DATA_DIR: dataDir, MEDIA_ALLOW_PRIVATE_URLS: 'true', ...env }),
  )
}

/** Adds `world` (accounts, groups, channels) to the sandbox's; fails loudly when the sandbox refuses it. */
export async function postWorld(sandboxUrl: string, world: object): Promise<void> {
  const posted = await sandboxCall(sandboxUrl, 'POST', '/world', world)
  if (posted.status !== 200) throw new Error(`POST /world → ${posted.status} ${JSON.stringify(posted.body)}`)
}

export async function sandboxCall(sandboxUrl: string, method: string, route: string, body?: unknown) {
  const res = await fetch(`${sandboxUrl}${route}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: res.status, body: (await res.json()) as any }
}

/** A gateway on the sandbox with one session paired as `phone`: the common start of a test file. */
export async function launchPaired(
  sandboxUrl: string,
  dataDir: string,
  phone: string,
  env: Record<string, string> = {},
) {
  const gw = await launchGateway(sandboxUrl, dataDir, env)
  const session = await gw.createSession()
  await pair(gw, sandboxUrl, session, phone)
  return { gw, session }
}

/** Reads the QR off GET /session, decodes the PNG like a phone camera, and has the sandbox phone scan it. */
export async function pair(gw: Gateway, sandboxUrl: string, s: Session, phone: string) {
  const png = await waitFor('a QR in GET /session', async () => (await gw.session(s)).body.qrcode || undefined, 60_000)
  const qr = decodeQrPng(png)
  const scan = await sandboxCall(sandboxUrl, 'POST', '/scan', { qr, phone })
  if (scan.status !== 200) throw new Error(`scan → ${scan.status} ${JSON.stringify(scan.body)}`)
  return waitFor(
    'isConnected',
    async () => {
      const r = await gw.session(s)
      return r.body.isConnected ? r.body : undefined
    },
    90_000,
  )
}

export async function inbox(sandboxUrl: string, phone: string): Promise<any[]> {
  return (await sandboxCall(sandboxUrl, 'GET', `/accounts/${phone}/inbox`)).body.messages
}

/** Serves fixed files on loopback so the gateway downloads media from a URL, as it would from the internet. */
export async function mediaServer(files: Record<string, { body: Buffer; type: string }>) {
  const { url, close } = await serveFiles(files)
  return { base: url, close }
}

export const sha256hex = (b: Buffer) => createHash('sha256').update(b).digest('hex')
