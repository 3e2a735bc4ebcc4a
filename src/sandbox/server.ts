/**
 * @module sandbox/server
 * `createSandbox(options)`: the whole platform sandbox in-process — HTTP control API + WebSocket `/ws/chat` on one
 * port, the HTTPS media host on a second — with fresh Noise and TLS keys. Tests start it on port 0 and read the
 * bound ports from the returned object; `main.ts` is the CLI around it.
 *
 * @example
 * const sandbox = await createSandbox({ port: 0 })
 * const trust = sandbox.trust() // { wsUrl, rootPublicKey, caCert, mediaHost }
 * await sandbox.close()
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import pino, { type Logger } from 'pino'
import { WebSocketServer } from 'ws'
import { AccountRegistry, type Account } from './accounts.js'
import { AppStateKeys } from './app-state.js'
import { makeNoiseIdentity, makeTlsMaterial } from './certs.js'
import { ChannelStore } from './channels.js'
import { clientVersionPolicy, formatClientVersion, type ClientVersion } from './client-version.js'
import { CompanionConnection } from './connection.js'
import type { QrPolicy, SandboxContext } from './context.js'
import { makeControlApi } from './control-api.js'
import { type DeviceRecord, DeviceLedger } from './device-ledger.js'
import { FaultState } from './faults.js'
import { DEFAULT_SUBSCRIBED_QUERY_IDS } from './handlers/channels.js'
import { makeIqHandlers } from './handlers/index.js'
import { startMediaHost } from './media-host.js'
import { MediaStore } from './media-store.js'
import { MessageRouter } from './messages.js'
import { PairingRegistry } from './pairing.js'
import { AccountRestrictions } from './restrictions.js'
import { notifyPictureChanges } from './picture-notify.js'
import { StanzaRouter } from './router.js'
import { loadSandboxState, saveSandboxState } from './state-file.js'
import { SandboxStats } from './stats.js'
import { installFastVerify } from './fast-verify.js'
import { IDLE_CONNECTION_MS } from './keep-alive.js'
import { LinkCodeRegistry } from './link-code.js'
import type { Faults, InboxMessage, PresenceEvent, World, WorldPatch } from './types.js'
import { clientAddress } from './client-address.js'
import { demoWorld, emptyWorld, mergeWorld, parseWorldPatch, withAccount, worldAccount } from './world.js'

export interface SandboxOptions {
  /** HTTP + WebSocket port; 0 picks a free one. Default 7800. */
  port?: number
  /** Media host port; 0 (default) picks a free one. */
  mediaPort?: number
  /** Bind address. Default 127.0.0.1 (loopback only). */
  host?: string
  /** Initial world; default: the built-in demo world. Pass `{}` for an empty world. */
  world?: WorldPatch
  /** QR refs sent per registration (default 6, like the platform). */
  qrRefs?: number
  /** Server-side life of the first ref (default 60 000 ms). */
  qrFirstMs?: number
  /** Server-side life of each later ref (default 20 000 ms). */
  qrNextMs?: number
  /**
   * Treat every phone number a client looks up as registered (default true), so tests need not list every
   * recipient in the world. Set false to have unknown numbers be "not on the platform".
   */
  autoRegister?: boolean
  /**
   * Answer a device query made by LID under that LID, as the platform does (default true; env
   * SANDBOX_LID_DEVICE_ANSWERS=0 in the CLI turns it off). On, Baileys' device cache hits and it keeps one Signal
   * session per contact, so the gateway's ratchet bookkeeping is really exercised: a kill between sending and
   * committing (src/platform/baileys/signal-recovery) and several sessions of one thread sending to one contact at once
   * (src/platform/baileys/patches/signal-queue-context). Off, the answer comes under the phone JID, Baileys misses its cache and
   * starts a new session (pkmsg) for every message, which hides both.
   */
  lidDeviceAnswers?: boolean
  /** Extra w:mex query ids to treat as "list subscribed channels". */
  subscribedChannelsQueryIds?: string[]
  /** Fault switches on from the start (as if POSTed to /faults), e.g. `{ wrongChainKey: true }`. */
  faults?: Faults
  logger?: Logger
  /**
   * State file (state-file.ts): when it exists, the world, accounts and paired companions are loaded from it
   * (`world` is then ignored), and `close()` writes them back, so paired clients can log in again after a restart.
   */
  stateFile?: string
  /** Refuse connections naming an older web client version with 405, as the platform does (CLI
   * `--min-client-version a.b.c`); GET /trust then publishes it as the current version. Unset: any version. */
  minClientVersion?: ClientVersion
}

export interface SandboxTrust {
  wsUrl: string
  rootPublicKey: string
  caCert: string
  mediaHost: string
  /** The platform's current web client version, `a.b.c` (what the gateway looks up at start and after a 405). */
  clientVersion: string
}

export interface Sandbox {
  /** `http://127.0.0.1:PORT` — what the gateway takes as SANDBOX_URL. */
  url: string
  port: number
  wsUrl: string
  mediaPort: number
  /** Same body as GET /trust. */
  trust(): SandboxTrust
  world(): World
  setWorld(patch: WorldPatch): void
  /** Same as POST /scan: pairs the device showing `qr` to `phone`. */
  scan(qr: string, phone: string): Promise<{ phone: string; device: number }>
  /** Same as POST /link-code: `phone`'s phone enters `code`, pairing the device that showed it. */
  linkCode(phone: string, code: string): Promise<{ phone: string; device: number }>
  inbox(phone: string): InboxMessage[]
  presence(phone: string): PresenceEvent[]
  account(phone: string): Account | undefined
  /** Same as GET /devices: per companion device, logins, 440 kicks and stanzas on superseded connections. */
  devices(): DeviceRecord[]
  /** Resolves once every message received so far has been decrypted (and its media verified) by its recipients. */
  settled(): Promise<void>
  close(): Promise<void>
}

export async function createSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  installFastVerify() // simulated phones check many sender-key signatures: native Ed25519, not pure JS
  const host = options.host ?? '127.0.0.1'
  const logger = options.logger ?? pino({ level: 'silent' })
  const qr: QrPolicy = {
    qrRefs: options.qrRefs ?? 6,
    qrFirstMs: options.qrFirstMs ?? 60_000,
    qrNextMs: options.qrNextMs ?? 20_000,
  }

  const accounts = new AccountRegistry()
  const appState = new AppStateKeys()
  const saved = options.stateFile ? loadSandboxState(options.stateFile, { accounts, appState }) : undefined
  let world: World = saved ?? (options.world ? mergeWorld(emptyWorld(), parseWorldPatch(options.world)) : demoWorld())
  const syncAccounts = (): void => {
    for (const a of world.accounts) accounts.ensure(a.phone)
  }
  syncAccounts()

  const [tls, noise] = await Promise.all([makeTlsMaterial(), Promise.resolve(makeNoiseIdentity())])
  const stats = new SandboxStats()
  // GET /stats: `uploads` counts every media upload, `uploadsByType` tallies them by media type
  const media = new MediaStore(mediaType => {
    stats.bump('uploads')
    stats.tally('uploadsByType', mediaType)
  })
  const mediaHost = await startMediaHost(tls, media, logger, host, options.mediaPort ?? 0, stats)
  const ctx: SandboxContext = {
    logger,
    qr,
    noise,
    accounts,
    media,
    restrictions: new AccountRestrictions(phone => worldAccount(world, phone)?.chats ?? []),
    faults: new FaultState(options.faults),
    stats,
    devices: new DeviceLedger(stats),
    caCert: tls.caCert,
    mediaHost: () => `127.0.0.1:${mediaHost.port}`,
    world: () => world,
    autoRegister: options.autoRegister ?? true,
    lidDeviceAnswers: options.lidDeviceAnswers ?? true,
    clientVersion: clientVersionPolicy(options.minClientVersion),
    subscribedQueryIds: new Set([...DEFAULT_SUBSCRIBED_QUERY_IDS, ...(options.subscribedChannelsQueryIds ?? [])]),
  }
  const setWorld = (patch: WorldPatch): void => {
    const before = world
    world = mergeWorld(world, patch)
    syncAccounts()
    notifyPictureChanges(ctx, before, world)
  }
  const channels = new ChannelStore(() => world, media)
  /** Pairing (by QR or by code) with a phone the world lacks creates that account in the world too. */
  const intoWorld = (paired: { phone: string; device: number }): { phone: string; device: number } => {
    // a bare new account: no merge, no picture to announce (a merge's passes over the world cost each pairing a
    // time that grew with the accounts already paired)
    if (!worldAccount(world, paired.phone)) {
      world = withAccount(world, paired.phone)
      accounts.ensure(paired.phone)
    }
    return paired
  }
  const pairing = new PairingRegistry(accounts, qr, () => world, ctx.faults)
  const linkCodes = new LinkCodeRegistry(ctx, pairing)
  const scan = async (qrString: string, phone: string) => intoWorld(await pairing.scan(qrString, phone))
  const linkCode = async (phone: string, code: string) => intoWorld(await linkCodes.enterCode(phone, code))
  const messages = new MessageRouter(ctx, channels)
  const handlers = makeIqHandlers(appState, channels, linkCodes)
  const router = new StanzaRouter(ctx, pairing, linkCodes, messages, handlers, appState)

  let port = 0
  const trust = (): SandboxTrust => ({
    wsUrl: `ws://127.0.0.1:${port}/ws/chat`,
    rootPublicKey: noise.rootPublicKey.toString('base64'),
    caCert: tls.caCert,
    mediaHost: ctx.mediaHost(),
    clientVersion: formatClientVersion(ctx.clientVersion.current),
  })
  const server = http.createServer(makeControlApi({ ctx, scan, linkCode, channels, trust, mergeWorld: setWorld }))
  server.keepAliveTimeout = IDLE_CONNECTION_MS
  const wss = new WebSocketServer({ noServer: true })
  server.on('upgrade', (req, socket, head) => {
    if (new URL(req.url ?? '/', 'http://sandbox').pathname !== '/ws/chat') {
      socket.destroy()
      return
    }
    // GET /stats `connections`: every platform connection a client opened (tests bound how often a gateway may)
    wss.handleUpgrade(req, socket, head, ws => {
      stats.bump('connections')
      // GET /stats `connectionsByAddress`: where each came from (a gateway behind a proxy: the proxy's address)
      const from = clientAddress(req.socket)
      stats.tally('connectionsByAddress', from)
      return new CompanionConnection(ctx, ws, router, from)
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 7800, host, () => resolve())
  })
  port = (server.address() as AddressInfo).port
  logger.info({ port, mediaPort: mediaHost.port }, 'platform sandbox listening')

  let closed = false
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    wsUrl: trust().wsUrl,
    mediaPort: mediaHost.port,
    trust,
    world: () => world,
    setWorld,
    scan,
    linkCode,
    inbox: phone => accounts.get(phone)?.inbox ?? [],
    presence: phone => accounts.get(phone)?.presence ?? [],
    account: phone => accounts.get(phone),
    devices: () => ctx.devices.list(),
    settled: () => messages.settled(),
    close: async () => {
      if (closed) return
      closed = true
      // first: the state must be written even if closing a busy server takes long
      if (options.stateFile) saveSandboxState(options.stateFile, { world, accounts, appState })
      for (const conn of [...router.connections]) conn.terminate()
      for (const client of wss.clients) client.terminate()
      wss.close()
      server.closeAllConnections()
      await new Promise<void>(resolve => server.close(() => resolve()))
      await mediaHost.close()
    },
  }
}
