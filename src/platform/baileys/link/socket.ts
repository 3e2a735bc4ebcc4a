/**
 * @module platform/baileys/link/socket
 * The bottom layer of a link: one Baileys socket, never reused. It reads the credentials and opens the socket,
 * persists credentials as Baileys mutates them, turns socket events into LinkEvents and stored contacts, and owns
 * the one idempotent teardown (`close`, `logout`). The operation layers (groups, channels, messages, status) build
 * on it through `requireOpen()` and the shared per-link state.
 */
import {
  getBinaryNodeChild,
  getBinaryNodeChildren,
  initAuthCreds,
  jidNormalizedUser,
  type AuthenticationCreds,
  type BinaryNode,
  type WASocket,
} from '@whiskeysockets/baileys'
import type { Logger } from 'pino'
import type { LinkSettings } from '../../settings.js'
import { downloadOptionsFromSettings, type DownloadOptions } from '../../../media/download.js'
import { ffmpegOptionsFromSettings, type FfmpegOptions } from '../../../media/ffmpeg.js'
import { GatewayError } from '../../../protocol/errors.js'
import { proxyConnection } from '../../../proxy/proxy-connection.js'
import type { CloseReason, LinkEvents, LinkOptions } from '../../link.js'
import { isProxyError } from '../close-reason.js'
import { withTimeout } from '../query.js'
import type { LinkAgents } from '../link-agents.js'
import { resyncContactsIfEmpty, storeContactEvents } from './address-book.js'
import { LinkCaches } from './caches.js'
import { wireConnectionEvents, type ConnectionState } from './connection-events.js'
import { safeEvents } from './safe-events.js'
import { isCodePlaceholder, registrationEndsAt, storableCreds } from './pairing-code.js'
import { RetryMessages } from './retry-messages.js'
import { openBaileysSocket } from './socket-config.js'
import { watchRestrictions } from './restrictions.js'
import { watchConversations } from './conversations.js'

export class LinkSocket {
  readonly options: LinkOptions
  readonly settings: LinkSettings
  readonly log: Logger
  /** How the link downloads media itself (trusting the sandbox CA when there is one). */
  readonly download: DownloadOptions
  /** How video thumbnails run ffmpeg (FFMPEG_* settings). */
  readonly ffmpeg: FfmpegOptions
  readonly caches: LinkCaches
  /** Sent messages kept for retry receipts: sends record into it, Baileys' getMessage reads from it. */
  readonly retries: RetryMessages
  /** Aborted when the socket ends: pending ack waits fail at once instead of timing out. */
  readonly #ended = new AbortController()
  readonly #events: LinkEvents
  readonly #state: ConnectionState = { open: false, paired: false, closedByUs: false, name: '' }
  #sock: WASocket | undefined
  #baileysLogger: Logger | undefined
  #agents: LinkAgents | undefined
  #closeCaches: (() => void) | undefined
  #closeEmitted = false
  #credsWrite: Promise<void> = Promise.resolve()
  /** Set when the platform sent the QR refs (the link is registering): when Baileys will end the connection. */
  #registration: { endsAt: number } | undefined
  /** Waiting for the refs (or the end of the link). */
  #registrationWaiters: (() => void)[] = []

  /** Starts connecting right away (credentials are read asynchronously). */
  constructor(options: LinkOptions) {
    this.options = options
    this.settings = options.settings
    this.log = options.logger
    this.#events = safeEvents(options.events, this.log)
    this.ffmpeg = ffmpegOptionsFromSettings(options.settings)
    this.caches = new LinkCaches(options.settings.PICTURE_CACHE_MS)
    this.retries = new RetryMessages(options.sentMessages, this.log)
    const ca = options.sandbox?.caCert
    const route = options.settings.SESSION_PROXY_MEDIA_DOWNLOADS ? options.proxy : undefined
    this.download = {
      ...downloadOptionsFromSettings(options.settings),
      ...(ca ? { ca } : {}),
      // the session's proxy for the tenant's media URLs too, where the operator allows it
      ...(route ? { proxy: () => proxyConnection(route, options.settings, ca) } : {}),
    }
    this.#start().catch(err => {
      this.log.error({ err }, 'platform link failed to start')
      // a proxy the gateway's settings refuse fails here, before any connection
      const reason = this.#state.closedByUs ? 'closed-by-us' : isProxyError(err) ? 'proxy-refused' : 'connection-lost'
      this.#emitClose(reason, (err as Error).message ?? String(err))
    })
  }

  get ended(): AbortSignal {
    return this.#ended.signal
  }
  /** The logger Baileys itself uses, for Baileys helpers the layers call. */
  get baileysLogger(): Logger {
    return this.#baileysLogger ?? this.log
  }

  async #start(): Promise<void> {
    const creds = (await this.options.auth.readCreds()) ?? initAuthCreds()
    if (this.#state.closedByUs) return this.#emitClose('closed-by-us', 'closed before connecting')
    // a code asked for on an earlier link died with it; Baileys must register again, not log in as that number
    if (isCodePlaceholder(creds)) creds.me = undefined
    creds.pairingCode = undefined
    this.#state.paired = !!creds.me?.id
    this.#state.name = creds.me?.name ?? ''
    const opened = openBaileysSocket(
      this.options,
      creds,
      async jid => this.caches.groups.get(jid),
      this.retries.getMessage,
    )
    this.#baileysLogger = opened.logger
    this.#agents = opened.agents
    this.#closeCaches = opened.closeCaches
    this.#sock = opened.sock
    this.#wire(opened.sock, creds)
  }

  #wire(sock: WASocket, creds: AuthenticationCreds): void {
    wireConnectionEvents(sock, creds, this.#state, {
      events: this.#events,
      log: this.log,
      onlineOnConnect: this.settings.PLATFORM_ONLINE_ON_CONNECT,
      credsChanged: () => this.#persistCreds(creds),
      opened: () => {
        resyncContactsIfEmpty(sock, this.options.contacts, this.log, this.settings.QUERY_TIMEOUT_MS).catch(err =>
          this.log.warn({ err }, 'contact resync failed'),
        )
      },
      closed: (reason, detail) => this.#emitClose(reason, detail),
    })
    sock.ws.on('CB:iq,type:set,pair-device', (stanza: BinaryNode) => {
      const refs = getBinaryNodeChildren(getBinaryNodeChild(stanza, 'pair-device'), 'ref').length
      this.#registration = { endsAt: registrationEndsAt(Date.now(), refs) }
      this.#wakeRegistrationWaiters()
    })
    storeContactEvents(sock, this.options.contacts, this.log)
    watchRestrictions(sock, this.#events, this.log, this.settings.QUERY_TIMEOUT_MS)
    watchConversations(sock, this.#events, this.log, this.settings.QUERY_TIMEOUT_MS)
    this.caches.wire(sock)
    this.retries.start(sock, this.settings.RETRY_STORE_MAX_AGE_MS)
  }

  /** Baileys mutates creds in place: write the whole object (but a pending code), in order, never blocking the socket. */
  #persistCreds(creds: AuthenticationCreds): void {
    this.#credsWrite = this.#credsWrite
      .then(() => this.options.auth.writeCreds(storableCreds(creds)))
      .catch(err => this.log.error({ err }, 'writing credentials failed'))
  }

  #emitClose(reason: CloseReason, detail: string): void {
    if (this.#closeEmitted) return
    this.#closeEmitted = true
    this.#state.open = false
    this.#ended.abort()
    this.#agents?.destroy()
    this.#closeCaches?.()
    this.retries.stop()
    this.#wakeRegistrationWaiters()
    // let pending credential writes land before the actor acts on the close (e.g. reconnects with the same store)
    void this.#credsWrite.then(() => this.#events.close(reason, detail))
  }

  async close(): Promise<void> {
    if (this.#state.closedByUs) return
    this.#state.closedByUs = true
    // not awaited: end() waits for the WebSocket to close, which must not hold up a shutdown
    this.#sock?.end(undefined).catch(err => this.log.debug({ err }, 'socket end failed'))
    if (this.#sock) this.#emitClose('closed-by-us', 'closed')
    await this.#credsWrite
  }

  async logout(): Promise<void> {
    const sock = this.#sock
    if (sock && this.#state.open && !this.#state.closedByUs) {
      this.#state.closedByUs = true
      try {
        await withTimeout(sock.logout(), this.settings.QUERY_TIMEOUT_MS)
      } catch (err) {
        this.log.warn({ err }, 'logout on the platform failed; closing anyway')
      }
      this.#state.closedByUs = false // let close() run its idempotent path
    }
    await this.close()
  }

  /**
   * The socket of a link that is registering (the platform sent its QR refs) and when Baileys will end it, waiting up
   * to `timeoutMs` for the refs of a link still connecting. SESSION_ALREADY_PAIRED once paired; SESSION_CONNECTING
   * when the link is not registering (closed, or no refs in time).
   */
  async registering(timeoutMs: number): Promise<{ sock: WASocket; endsAt: number }> {
    if (this.#state.paired) throw new GatewayError('PAIRING_CODE_NOT_NEEDED')
    if (!this.#registration && !this.#closeEmitted) {
      let timer: NodeJS.Timeout | undefined
      await new Promise<void>(resolve => {
        timer = setTimeout(resolve, timeoutMs)
        this.#registrationWaiters.push(resolve)
      })
      clearTimeout(timer)
    }
    const sock = this.#sock
    const endsAt = this.#registration?.endsAt ?? 0
    if (this.#state.paired) throw new GatewayError('PAIRING_CODE_NOT_NEEDED')
    if (!sock || this.#closeEmitted || this.#state.closedByUs || Date.now() >= endsAt)
      throw new GatewayError('SESSION_CONNECTING')
    return { sock, endsAt }
  }

  #wakeRegistrationWaiters(): void {
    for (const wake of this.#registrationWaiters.splice(0)) wake()
  }

  /** The socket, when the link is open and not closing; else SESSION_NOT_CONNECTED. */
  requireOpen(): WASocket {
    if (!this.#sock || !this.#state.open || this.#state.closedByUs) throw new GatewayError('SESSION_NOT_CONNECTED')
    return this.#sock
  }

  /** The account's own JID without device part (the socket knows it once paired). */
  ownJid(sock: WASocket): string {
    const id = sock.authState.creds.me?.id
    if (!id) throw new GatewayError('SESSION_NOT_CONNECTED')
    return jidNormalizedUser(id)
  }
}
