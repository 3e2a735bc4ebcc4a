/**
 * @module actors/session-actor
 * One actor per session, living in its shard's worker thread. It owns the session's platform link and its state
 * machine (SPEC "States and transitions", BAILEYS-MAPPING §1):
 *
 *   awaiting QR ──scan──▶ connecting (paired; 515 restart) ──open──▶ connected
 *        │ QR deadline                                   ◀── connection lost: backoff, reconnect ──┘
 *        ▼                       logged out on the phone / reset: clear credentials, back to awaiting QR
 *     deleted (registry and data removed; later calls get 404)
 *
 * Commands run one at a time through the mailbox, in arrival order. Every state change is published as a
 * snapshot to the main thread, which answers GET /session from it. Events of a link that is no longer the
 * current one (closed by us, replaced by a reconnect) are ignored, so one session never has two live links.
 */
import type { Logger } from 'pino'
import type { Config } from '../config.js'
import type { LifecycleCommand, SessionCommand } from '../protocol/commands.js'
import { NEEDS_CONNECTION } from '../protocol/commands.js'
import { GatewayError } from '../protocol/errors.js'
import type { SessionState } from '../protocol/snapshot.js'
import type { CloseReason, LinkEvents, LinkFactory, PlatformLink, SandboxTrust } from '../platform/link.js'
import type { SessionRecord, Store } from '../storage/types.js'
import { runOnLink } from './actor-commands.js'
import { reconnectDelay } from './backoff.js'
import { Mailbox } from './mailbox.js'
import type { SnapshotPublisher } from './publisher.js'
import { renderQr } from './qr.js'
import { TypingTimers } from './typing.js'

export interface ActorDeps {
  record: SessionRecord
  store: Store
  createLink: LinkFactory
  config: Config
  logger: Logger
  publisher: SnapshotPublisher
  sandbox: () => Promise<SandboxTrust | undefined>
  /** Called once the session is deleted, so the host forgets the actor. */
  onDeleted: (id: string) => void
}

export class SessionActor {
  readonly id: string
  readonly #deps: ActorDeps
  readonly #log: Logger
  readonly #mailbox = new Mailbox()
  readonly #typing: TypingTimers
  #record: SessionRecord
  #link: PlatformLink | undefined
  /** Bumped whenever the current link is abandoned; events carry the generation they were created with. */
  #generation = 0
  #state: SessionState = 'connecting'
  #generatedId = ''
  #name = ''
  #isConnected = false
  #qrcode = ''
  #qrSeq = 0
  #picture = ''
  #deadlineTimer: NodeJS.Timeout | undefined
  #reconnectTimer: NodeJS.Timeout | undefined
  #attempt = 0
  #stopped = false

  constructor(deps: ActorDeps) {
    this.#deps = deps
    this.#record = deps.record
    this.id = deps.record.id
    this.#log = deps.logger.child({ session: this.id })
    this.#typing = new TypingTimers(deps.config.TYPING_MS, destination => {
      this.#link?.presence(destination, 'paused').catch(err => this.#log.debug({ err }, 'typing pause failed'))
    })
  }

  get #paired(): boolean {
    return this.#record.qrDeadline === null
  }

  /** Brings the session up (new or restored). An unpaired session past its QR deadline is deleted instead. */
  async start(): Promise<void> {
    const creds = await this.#deps.store.auth(this.id).readCreds()
    this.#generatedId = creds?.me?.id ?? ''
    const deadline = this.#record.qrDeadline
    if (deadline !== null) {
      if (deadline <= Date.now()) {
        this.#log.info('QR deadline passed while the session was down: deleting it')
        await this.#destroy()
        return
      }
      this.#state = 'awaiting-qr'
      this.#armDeadline(deadline)
    }
    this.#publish()
    await this.#openLink()
  }

  /** Runs a command in mailbox order. */
  run(command: SessionCommand | Exclude<LifecycleCommand, { type: 'start' | 'shutdown' }>, signal: AbortSignal): Promise<unknown> {
    return this.#mailbox.post(async () => {
      if (this.#stopped) throw new GatewayError('SESSION_NOT_FOUND')
      // The client hung up while this waited in the mailbox: nobody is left to read the result.
      if (signal.aborted) throw new GatewayError('INTERNAL', 'request aborted by the client')
      if (command.type === 'reset') return this.#reset()
      if (command.type === 'delete') return this.#delete()
      const link = this.#link
      if (NEEDS_CONNECTION.has(command.type) && (!this.#isConnected || !link)) {
        throw new GatewayError('SESSION_NOT_CONNECTED')
      }
      return runOnLink(command, { sessionId: this.id, link: link!, typing: this.#typing, signal })
    })
  }

  /** SIGTERM: close the link without logging out; the session stays registered and comes back on restart. */
  async shutdown(): Promise<void> {
    this.#stopped = true
    this.#clearTimers()
    await this.#dropLink()
  }

  // ---- lifecycle commands -------------------------------------------------------------------------------------

  async #reset(): Promise<null> {
    await this.#dropLink({ logout: this.#paired })
    await this.#backToQr()
    return null
  }

  async #delete(): Promise<null> {
    await this.#dropLink({ logout: this.#paired })
    await this.#destroy()
    return null
  }

  /** Clears credentials and starts pairing over with a fresh QR deadline (reset, or logged out on the phone). */
  async #backToQr(): Promise<void> {
    const { store, config } = this.#deps
    await store.auth(this.id).clear()
    await store.contacts(this.id).clear()
    this.#record = { ...this.#record, qrDeadline: Date.now() + config.SESSION_QR_LIFETIME_MS }
    await store.putSession(this.#record)
    this.#state = 'awaiting-qr'
    this.#generatedId = ''
    this.#name = ''
    this.#picture = ''
    this.#qrcode = ''
    this.#qrSeq++
    this.#isConnected = false
    this.#attempt = 0
    this.#armDeadline(this.#record.qrDeadline!)
    this.#publish()
    await this.#openLink()
  }

  /** Removes the session and all its data, tells the main thread, and stops for good. */
  async #destroy(): Promise<void> {
    this.#stopped = true
    this.#clearTimers()
    await this.#dropLink()
    try {
      await this.#deps.store.deleteSession(this.id)
    } catch (err) {
      this.#log.error({ err }, 'could not delete session data')
    }
    this.#deps.publisher.deleted(this.id)
    this.#deps.onDeleted(this.id)
  }

  // ---- the link -----------------------------------------------------------------------------------------------

  async #openLink(): Promise<void> {
    if (this.#stopped) return
    clearTimeout(this.#reconnectTimer)
    const generation = ++this.#generation
    let sandbox: SandboxTrust | undefined
    try {
      sandbox = await this.#deps.sandbox()
    } catch (err) {
      this.#log.warn({ err }, 'sandbox trust unavailable')
      if (generation === this.#generation) this.#scheduleReconnect()
      return
    }
    if (this.#stopped || generation !== this.#generation) return
    const current = () => generation === this.#generation && !this.#stopped
    const events: LinkEvents = {
      qr: qr => current() && this.#onQr(qr),
      paired: me => current() && void this.#onPaired(me),
      open: me => current() && this.#onOpen(me),
      name: name => current() && this.#onName(name),
      close: (reason, detail) => current() && this.#onClose(reason, detail),
    }
    const { store, config, createLink } = this.#deps
    try {
      this.#link = createLink({
        sessionId: this.id, auth: store.auth(this.id), contacts: store.contacts(this.id),
        logger: this.#log, config, sandbox, events,
      })
    } catch (err) {
      this.#log.error({ err }, 'could not create the platform link')
      this.#link = undefined
      this.#scheduleReconnect()
    }
  }

  /** Abandons the current link (its late events are ignored), optionally logging the device out first. */
  async #dropLink(options: { logout?: boolean } = {}): Promise<void> {
    this.#generation++
    this.#typing.clear()
    clearTimeout(this.#reconnectTimer)
    const link = this.#link
    this.#link = undefined
    const connected = this.#isConnected
    this.#isConnected = false
    this.#name = ''
    if (!link) return
    try {
      if (options.logout && connected) await link.logout()
      else await link.close()
    } catch (err) {
      this.#log.warn({ err }, options.logout ? 'logout failed; credentials are cleared anyway' : 'link close failed')
      await link.close().catch(() => undefined)
    }
  }

  #onQr(qr: string): void {
    if (this.#paired) return
    const seq = ++this.#qrSeq
    renderQr(qr).then(
      png => {
        if (seq !== this.#qrSeq || this.#stopped || this.#paired) return // a newer QR or a scan won
        this.#qrcode = png
        this.#state = 'awaiting-qr'
        this.#publish()
      },
      err => this.#log.error({ err }, 'QR rendering failed'),
    )
  }

  async #onPaired(me: { id: string }): Promise<void> {
    this.#clearDeadline()
    this.#qrSeq++
    this.#qrcode = ''
    this.#generatedId = me.id
    this.#state = 'connecting'
    this.#publish()
    await this.#markPaired()
  }

  /** The QR deadline no longer applies once the account is linked; persisting it keeps a restart from deleting us. */
  async #markPaired(): Promise<void> {
    if (this.#paired) return
    this.#record = { ...this.#record, qrDeadline: null }
    try {
      await this.#deps.store.putSession(this.#record)
    } catch (err) {
      this.#log.error({ err }, 'could not persist the pairing')
    }
  }

  #onOpen(me: { id: string; name: string }): void {
    this.#clearDeadline()
    void this.#markPaired()
    this.#isConnected = true
    this.#state = 'connected'
    this.#qrSeq++
    this.#qrcode = ''
    this.#name = me.name
    this.#generatedId = me.id
    this.#attempt = 0
    this.#publish()
    const link = this.#link
    // The picture is a nicety: fetch it in the background so the session is usable at once.
    link?.ownPicture().then(
      url => {
        if (link !== this.#link) return
        this.#picture = url
        this.#publish()
      },
      err => this.#log.debug({ err }, 'own picture unavailable'),
    )
  }

  #onName(name: string): void {
    if (!this.#isConnected) return
    this.#name = name
    this.#publish()
  }

  #onClose(reason: CloseReason, detail: string): void {
    this.#link = undefined
    this.#isConnected = false
    this.#name = ''
    this.#typing.clear()
    this.#log.info({ reason, detail }, 'platform link closed')
    switch (reason) {
      case 'closed-by-us':
        this.#publish()
        return
      case 'restart-required':
        void this.#openLink() // right after pairing: no visible change
        return
      case 'qr-expired':
        // The platform's QR refs ran out; the gateway's own deadline decides when the session dies.
        if (!this.#paired) {
          void this.#openLink()
          return
        }
        break
      case 'logged-out':
        void this.#backToQr().catch(err => this.#log.error({ err }, 'could not restart pairing after logout'))
        return
      case 'replaced':
        // Another socket uses these credentials: reconnecting would ping-pong with it. Stay down.
        this.#log.warn('session replaced by another connection; not reconnecting')
        this.#state = 'reconnecting'
        this.#publish()
        return
      case 'connection-lost':
        break
    }
    this.#state = this.#paired ? 'reconnecting' : 'awaiting-qr'
    this.#publish()
    this.#scheduleReconnect()
  }

  #scheduleReconnect(): void {
    if (this.#stopped) return
    clearTimeout(this.#reconnectTimer)
    const { RECONNECT_MIN_MS, RECONNECT_MAX_MS } = this.#deps.config
    const delay = reconnectDelay(this.#attempt++, RECONNECT_MIN_MS, RECONNECT_MAX_MS)
    this.#reconnectTimer = setTimeout(() => void this.#openLink(), delay)
  }

  // ---- QR deadline --------------------------------------------------------------------------------------------

  #armDeadline(at: number): void {
    this.#clearDeadline()
    this.#deadlineTimer = setTimeout(() => {
      // Through the mailbox, so it cannot interleave with a reset that is moving the deadline.
      void this.#mailbox.post(async () => {
        const deadline = this.#record.qrDeadline
        if (this.#stopped || deadline === null || deadline > Date.now()) return
        this.#log.info('QR not scanned in time: deleting the session')
        await this.#destroy()
      })
    }, Math.max(0, at - Date.now()))
  }

  #clearDeadline(): void {
    clearTimeout(this.#deadlineTimer)
    this.#deadlineTimer = undefined
  }

  #clearTimers(): void {
    this.#clearDeadline()
    clearTimeout(this.#reconnectTimer)
    this.#typing.clear()
  }

  #publish(): void {
    if (this.#stopped) return
    this.#deps.publisher.snapshot({
      id: this.id,
      state: this.#state,
      generatedId: this.#generatedId,
      name: this.#isConnected ? this.#name : '',
      isConnected: this.#isConnected,
      qrcode: this.#isConnected ? '' : this.#qrcode,
      picture: this.#picture,
      qrDeadline: this.#record.qrDeadline,
    })
  }
}
