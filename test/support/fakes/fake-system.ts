/**
 * @module test/support/fakes/fake-system
 * A `SessionSystem` for route tests: sessions live in a map, every command is recorded, replies are canned per
 * command type and can be replaced by a function (to return odd shapes or throw). Also builds the app with a
 * logger whose lines the test can read.
 */
import http from 'node:http'
import pino from 'pino'
import type { SessionChange, SessionSystem } from '../../../src/actors/main/session-system.js'
import type { Admission } from '../../../src/actors/main/admission.js'
import type { CreationClient } from '../../../src/actors/main/session-creation.js'
import { ViewTokens, type QrView, type ViewToken } from '../../../src/actors/main/view-tokens.js'
import { loadSettings, type Settings } from '../../../src/gateway-settings.js'
import { type AppDeps, createApp } from '../../../src/http/app.js'
import { GatewayError } from '../../../src/protocol/errors.js'
import type { ClientCommand, SessionProxy, ReplyValue, SessionCommand } from '../../../src/protocol/commands.js'
import { maskProxy } from '../../../src/proxy/proxy-url.js'
import { type ReadCommand, readAnswerJson } from '../../../src/protocol/read-answers.js'
import type { SessionSnapshot } from '../../../src/protocol/snapshot.js'
import { parseProm, sumOf } from '../prom-text.js'
import { onLoopback } from '../loopback-server.js'

export interface RecordedCommand {
  id: string
  command: ClientCommand
  signal: AbortSignal | undefined
  /** What the route said its answer's end is (the command's place is held until it settles). */
  answered: Promise<unknown> | undefined
}

type RunHandler = (id: string, command: ClientCommand) => unknown

export const GROUP = { id: '120363000000000001@g.us', name: 'Team', description: '', picture: '', created: null }
export const MEMBER = { id: '5511999999999@s.whatsapp.net', name: 'Ana', phone: '5511999999999' }
export const CHANNEL = {
  id: '120363000000000002@newsletter',
  name: 'News',
  picture: 'https://example.test/p.jpg',
  isOwner: true,
  created: '2025-01-01T00:00:00.000Z',
}

const CANNED: { [K in SessionCommand['type']]: ReplyValue<Extract<SessionCommand, { type: K }>> } = {
  sendMessage: { messageId: 'MSG1' },
  postStatus: { statusId: 'STATUS1' },
  sendTyping: { id: 'ignored' },
  listGroups: { docs: [GROUP] },
  getGroup: GROUP,
  listGroupMembers: { docs: [MEMBER] },
  listChannels: { docs: [CHANNEL] },
  listChannelMessages: { docs: [], before: 0 },
  requestPairingCode: { code: 'ABCD-EFGH', expiresAt: Date.parse('2030-01-01T00:00:00Z') },
}

export function snapshotFor(id: string, patch: Partial<SessionSnapshot> = {}): SessionSnapshot {
  return {
    id,
    state: 'awaiting-qr',
    generatedId: '',
    name: '',
    isConnected: false,
    qrcode: 'iVBORw0KGgo=',
    picture: '',
    qrDeadline: Date.now() + 180_000,
    pairingCode: null,
    version: 1,
    ...patch,
  }
}

export class FakeSystem implements SessionSystem {
  readonly sessions = new Map<string, { sessionId: string; snapshot: SessionSnapshot }>()
  readonly commands: RecordedCommand[] = []
  readonly resets: string[] = []
  readonly deletes: string[] = []
  /** Replace to make `run` return something else or throw. */
  onRun: RunHandler | undefined
  /**
   * Set to the real admission to hold each command's place as the real system does: until the command ends or,
   * when the route passes its answer, until that settles too (actors/main/sharded-system.ts). Unset: no limit.
   */
  admission: Admission | undefined
  /** Replace to make `createSession` fail. */
  onCreate: (() => Promise<{ id: string; sessionId: string }>) | undefined
  /** Each session's own proxy, as POST /session and PUT /session/proxy left it (URL in full). */
  readonly proxies = new Map<string, string>()
  /** The real view-token book, over this fake's sessions. */
  readonly viewTokens = new ViewTokens(id => this.sessions.get(id)?.snapshot)
  private counter = 0
  readonly #watchers: ((change: SessionChange) => void)[] = []

  /** Adds a session; connected by default, since most endpoints need it. */
  add(id = 'sess-1', sessionId = 'secret-1', patch: Partial<SessionSnapshot> = {}): { id: string; sessionId: string } {
    this.sessions.set(id, {
      sessionId,
      snapshot: snapshotFor(id, { state: 'connected', isConnected: true, qrcode: '', qrDeadline: null, ...patch }),
    })
    return { id, sessionId }
  }

  async createSession(
    _client?: CreationClient,
    options: { proxy?: string } = {},
  ): Promise<{ id: string; sessionId: string }> {
    if (this.onCreate) return this.onCreate()
    this.counter += 1
    const id = `new-${this.counter}`
    const sessionId = `secret-new-${this.counter}`
    this.sessions.set(id, { sessionId, snapshot: snapshotFor(id) })
    if (options.proxy !== undefined) this.proxies.set(id, options.proxy)
    return { id, sessionId }
  }

  /** What the actor answers about a session's proxy (actors/session/lifecycle.ts), over `proxies`. */
  getSessionProxy(id: string): SessionProxy {
    const own = this.proxies.get(id)
    return own === undefined ? { proxy: null, source: 'none' } : { proxy: maskProxy(own), source: 'session' }
  }

  authenticate(id: string, sessionId: string): SessionSnapshot | undefined {
    const entry = this.sessions.get(id)
    return entry !== undefined && entry.sessionId === sessionId ? entry.snapshot : undefined
  }

  async run<C extends ClientCommand>(
    id: string,
    command: C,
    signal?: AbortSignal,
    answered?: Promise<unknown>,
  ): Promise<ReplyValue<C>> {
    this.commands.push({ id, command, signal, answered })
    const leave = this.admission?.enter(id, 0)
    try {
      return await this.reply(id, command)
    } finally {
      if (leave && answered) answered.then(leave, leave)
      else leave?.()
    }
  }

  /** A read as the real shard answers it: the reply (`onRun`'s, or canned) made into the spec body's JSON. */
  async read(id: string, command: ReadCommand, signal?: AbortSignal, answered?: Promise<unknown>): Promise<Uint8Array> {
    return readAnswerJson(command, await this.run(id, command, signal, answered))
  }

  private async reply<C extends ClientCommand>(id: string, command: C): Promise<ReplyValue<C>> {
    if (this.onRun) return (await this.onRun(id, command)) as ReplyValue<C>
    // the proxy setting needs no connection
    if (command.type === 'setSessionProxy') {
      if (command.proxy === null) this.proxies.delete(id)
      else this.proxies.set(id, command.proxy)
    }
    if (command.type === 'getSessionProxy' || command.type === 'setSessionProxy')
      return this.getSessionProxy(id) as ReplyValue<C>
    const entry = this.sessions.get(id)
    // a pairing code needs no connection (the real actor answers 409 for a paired session)
    if (!entry?.snapshot.isConnected && command.type !== 'requestPairingCode')
      throw new GatewayError('SESSION_NOT_CONNECTED')
    return CANNED[(command as SessionCommand).type] as ReplyValue<C>
  }

  createViewLink(id: string): ViewToken {
    return this.viewTokens.issue(id)
  }

  viewQr(token: string): QrView {
    return this.viewTokens.view(token)
  }

  async resetSession(id: string): Promise<void> {
    this.resets.push(id)
    this.viewTokens.revoke(id)
  }

  async deleteSession(id: string): Promise<void> {
    this.deletes.push(id)
    this.sessions.delete(id)
    this.viewTokens.revoke(id)
    this.tell({ type: 'changed', id })
  }

  watch(listener: (change: SessionChange) => void): void {
    this.#watchers.push(listener)
  }

  /** Tells the watchers (the waiting GET /session) of a change, as the real system does. */
  tell(change: SessionChange): void {
    for (const listener of this.#watchers) listener(change)
  }

  /** Replaces a session's snapshot (a new object, as the real cache does) and tells the watchers. */
  update(id: string, patch: Partial<SessionSnapshot>): void {
    const entry = this.sessions.get(id)!
    entry.snapshot = { ...entry.snapshot, ...patch, version: entry.snapshot.version + 1 }
    this.viewTokens.observe(entry.snapshot)
    this.tell({ type: 'changed', id })
  }

  async close(): Promise<void> {
    this.tell({ type: 'closing' })
  }

  /** The last command that reached the system. */
  last(): ClientCommand | undefined {
    return this.commands.at(-1)?.command
  }
}

export interface TestApp {
  app: ReturnType<typeof createApp>
  system: FakeSystem
  settings: Settings
  /** Every log line the app wrote, parsed. */
  logs: Record<string, unknown>[]
  /** Headers of the default connected session. */
  auth: { id: string; 'session-id': string }
}

/** `extra`: more of the app's deps (the connection guard a served gateway shares with its server, a cluster's part). */
export function makeApp(env: NodeJS.ProcessEnv = {}, extra: Pick<AppDeps, 'connections' | 'cluster'> = {}): TestApp {
  const system = new FakeSystem()
  const settings = loadSettings({ BODY_LIMIT_BYTES: '4096', ...env })
  const logs: Record<string, unknown>[] = []
  const logger = pino({ level: 'debug' }, { write: (line: string) => void logs.push(JSON.parse(line)) })
  const app = createApp({ system, settings, logger, ...extra })
  const { id, sessionId } = system.add()
  return { app, system, settings, logs, auth: { id, 'session-id': sessionId } }
}

export interface ServedApp extends TestApp {
  server: http.Server
  url: string
  /** Requests waiting for a change now (`gateway_session_waits`). */
  waiting(): Promise<number>
}

/** The app on a loopback port of its own, for what needs a live connection (a waiting GET /session); the caller
 * closes `server`. */
export async function serveApp(env: NodeJS.ProcessEnv = {}): Promise<ServedApp> {
  const t = makeApp(env)
  const { server, url } = await onLoopback(http.createServer(t.app))
  const waiting = async () => sumOf(parseProm(await (await fetch(`${url}/metrics`)).text()), 'gateway_session_waits')
  return { ...t, server, url, waiting }
}

/** Exact key set of a response body. */
export const keys = (body: object): string[] => Object.keys(body).sort()
