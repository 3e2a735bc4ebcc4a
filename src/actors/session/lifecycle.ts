/**
 * @module actors/session/lifecycle
 * The session's lifecycle commands: start (new or restored), reset, delete, shutdown, and the QR deadline. It
 * builds the session's parts (published state, record, link supervisor, timers) and hands link events to `LinkReactions`.
 */
import type { Logger } from 'pino'
import type { PlatformLink, ProxyRoute } from '../../platform/link.js'
import type { PairingCode, SessionProxy } from '../../protocol/commands.js'
import { maskProxy } from '../../proxy/proxy-url.js'
import { GatewayError } from '../../protocol/errors.js'
import type { Mailbox } from './mailbox.js'
import type { MediaSendBounds } from '../../media/media-slots.js'
import { TypingTimers } from './typing.js'
import { LinkSupervisor } from './link-supervisor.js'
import type { ActorDeps } from './deps.js'
import { LinkReactions } from './link-reactions.js'
import { QrDeadlineTimer } from './qr-deadline.js'
import { SessionRecordKeeper } from './record.js'
import { PublishedState } from './published-state.js'
import { Conversations } from './conversations.js'
import { NewChatBrake } from './new-chat-brake.js'
import { RestrictionState } from './restriction-state.js'

export class SessionLifecycle {
  readonly id: string
  readonly typing: TypingTimers
  /** Refuses new 1:1 chats while the platform restricts the account (new-chat-brake.ts). */
  readonly brake: NewChatBrake
  readonly #restrictions: RestrictionState
  readonly #conversations: Conversations
  readonly #deps: ActorDeps
  readonly #log: Logger
  readonly #mailbox: Mailbox
  readonly #published: PublishedState
  readonly #record: SessionRecordKeeper
  readonly #deadline = new QrDeadlineTimer(() => this.#deadlineDue())
  readonly #supervisor: LinkSupervisor
  /** Set for good once the session is deleted or the thread shuts down. */
  #stopped = false
  #deleted = false

  constructor(deps: ActorDeps, mailbox: Mailbox) {
    this.#deps = deps
    this.#mailbox = mailbox
    this.id = deps.record.id
    const log = (this.#log = deps.logger.child({ session: this.id }))
    const isStopped = () => this.#stopped
    this.#record = new SessionRecordKeeper(deps.record, deps.store, log)
    this.#published = new PublishedState({
      id: this.id,
      publisher: deps.publisher,
      qrDeadline: () => this.#record.qrDeadline,
      isStopped,
    })
    this.typing = new TypingTimers(deps.settings.TYPING_MS, destination => {
      this.#supervisor.link?.sendTyping(destination, 'paused').catch(err => log.debug({ err }, 'typing pause failed'))
    })
    this.#restrictions = new RestrictionState(log)
    this.#conversations = new Conversations(deps.store.conversations(this.id), deps.settings.CONVERSATIONS_MAX, log)
    this.brake = new NewChatBrake(this.#conversations, this.#restrictions, deps.settings.NEW_CHATS_PER_DAY)
    const events = new LinkReactions({
      published: this.#published,
      restrictions: this.#restrictions,
      conversations: this.#conversations,
      record: this.#record,
      deadline: this.#deadline,
      typing: this.typing,
      log,
      isStopped,
      supervisor: () => this.#supervisor,
      restartPairing: () => this.#backToQr(),
    })
    this.#supervisor = new LinkSupervisor({
      id: this.id,
      store: deps.store,
      settings: deps.settings,
      platform: deps.platform,
      log,
      isStopped,
      events,
      proxy: () => this.#proxyRoute(),
    })
  }

  get stopped(): boolean {
    return this.#stopped
  }

  stopError(): GatewayError {
    if (this.#deleted) return new GatewayError('SESSION_NOT_FOUND')
    // cluster mode: stopped here because another node runs it now (or will in a moment)
    if (this.#deps.policy.stoppedAnswer === 'moving') return new GatewayError('SESSION_MOVING')
    return new GatewayError('SHUTTING_DOWN')
  }

  get isConnected(): boolean {
    return this.#published.isConnected
  }

  /** Still on its way up: neither connected, nor showing a QR, nor given up (the restore holds a slot meanwhile). */
  get isConnecting(): boolean {
    return this.#published.state === 'connecting' && !this.#stopped
  }

  get link(): PlatformLink | undefined {
    return this.#supervisor.link
  }

  get media(): MediaSendBounds {
    return this.#deps.media
  }

  /** The proxy the session's next connection goes through, as the client may see it (no password). */
  getSessionProxy(): SessionProxy {
    const own = this.#record.proxy
    if (own !== undefined) return { proxy: maskProxy(own), source: 'session' }
    return { proxy: null, source: this.#deps.settings.SESSION_PROXY_DEFAULT === undefined ? 'none' : 'default' }
  }

  /** Stores the session's own proxy (null removes it); the current link keeps its route, the next one takes it. */
  async setSessionProxy(proxy: string | null): Promise<SessionProxy> {
    await this.#record.setSessionProxy(proxy ?? undefined)
    this.#log.info({ proxy: this.getSessionProxy().proxy }, 'proxy changed: the next connection goes through it')
    return this.getSessionProxy()
  }

  #proxyRoute(): ProxyRoute | undefined {
    const own = this.#record.proxy
    if (own !== undefined) return { url: own, chosenBy: 'session' }
    const fallback = this.#deps.settings.SESSION_PROXY_DEFAULT
    return fallback === undefined ? undefined : { url: fallback, chosenBy: 'default' }
  }

  /** Brings the session up (new or restored). An unpaired session past its QR deadline is deleted instead. */
  async start(): Promise<void> {
    this.#published.generatedId = await this.#record.storedDeviceId()
    // before the link opens, so the brake knows every stored conversation from the first send on
    await this.#conversations.load().catch(err => this.#log.warn({ err }, 'could not read stored conversations'))
    const deadline = this.#record.qrDeadline
    if (deadline !== null) {
      if (deadline <= Date.now()) {
        this.#log.info('QR deadline passed while the session was down: deleting it')
        await this.#destroy()
        return
      }
      this.#published.state = 'awaiting-qr'
      this.#deadline.arm(deadline)
    }
    this.#published.publish()
    await this.#supervisor.open()
  }

  async reset(): Promise<null> {
    this.#published.notConnected = undefined // the client asked to start over: the old reason no longer applies
    await this.#dropLink({ logout: this.#record.paired })
    await this.#backToQr()
    return null
  }

  /**
   * A pairing code for `phone`, answered once the platform registered it. It works until the platform's
   * registration of this link ends, and never past the session's QR deadline; the QR page shows it meanwhile.
   */
  async requestPairingCode(phone: string): Promise<PairingCode> {
    if (this.#record.paired) throw new GatewayError('PAIRING_CODE_NOT_NEEDED')
    const link = this.#supervisor.link
    if (!link) throw new GatewayError('SESSION_CONNECTING')
    const issued = await link.requestPairingCode(phone)
    const deadline = this.#record.qrDeadline
    const code = { code: issued.code, expiresAt: Math.min(issued.expiresAt, deadline ?? issued.expiresAt) }
    // the link may have paired (a QR scan won) or gone while the platform answered: then nothing is pending
    if (link === this.#supervisor.link && !this.#record.paired) {
      this.#published.pairingCode = code
      this.#published.publish()
    }
    return code
  }

  async delete(): Promise<null> {
    await this.#dropLink({ logout: this.#record.paired })
    if (!(await this.#destroy())) throw this.stopError()
    return null
  }

  /** SIGTERM: close the link without logging out; the session stays registered and comes back on restart. */
  async shutdown(): Promise<void> {
    this.#stopped = true
    this.#clearTimers()
    await this.#dropLink({ logout: false })
  }

  /** After shutdown() and every command settled: records the clean stop (the platform's `SessionRun`). */
  async markCleanStop(): Promise<void> {
    await this.#supervisor.markCleanStop()
  }

  /** After shutdown() when a command did not settle in time: no clean stop recorded, the run's hold given back. */
  async abandonStop(): Promise<void> {
    this.#log.warn(
      'a command did not settle after the link closed: the stop is not recorded as clean (the next start renews ' +
        'Signal sessions as they are used)',
    )
    await this.#supervisor.abandonStop()
  }

  /**
   * Clears credentials and starts pairing over with a fresh QR deadline (reset, or logged out on the phone). A
   * never-paired session whose lifetime (UNPAIRED_MAX_LIFETIME_MS) is used up is deleted instead: 404 to a reset.
   */
  async #backToQr(): Promise<void> {
    const { SESSION_QR_LIFETIME_MS, UNPAIRED_MAX_LIFETIME_MS } = this.#deps.settings
    const deadline = await this.#record.restartPairing(SESSION_QR_LIFETIME_MS, UNPAIRED_MAX_LIFETIME_MS)
    // what the unlinked device knew of its account is no one's now (the next pairing may be another account)
    this.#restrictions.reset()
    this.#published.restrictions = null
    await this.#conversations.clear()
    if (deadline <= Date.now()) {
      this.#log.info('unpaired lifetime used up: deleting the session instead of showing a new QR')
      if (!(await this.#destroy())) throw this.stopError()
      throw new GatewayError('SESSION_NOT_FOUND')
    }
    const published = this.#published
    published.state = 'awaiting-qr'
    published.generatedId = ''
    published.picture = ''
    published.dropQr()
    published.linkDown()
    this.#supervisor.resetBackoff()
    this.#deadline.arm(deadline)
    published.publish()
    await this.#supervisor.open()
  }

  /**
   * Removes the session and all its data, tells the main thread, and stops for good. False when another node runs
   * the session now (cluster mode: this one lost its lease, e.g. it was frozen past it): nothing is removed, the
   * session only stops here, and its node's ownership loop lets it go.
   */
  async #destroy(): Promise<boolean> {
    this.#stopped = true
    this.#clearTimers()
    await this.#dropLink({ logout: false })
    if (!(await this.#supervisor.claim()) || !(await this.#record.remove())) {
      this.#log.info('not deleted here: another node runs the session now')
      return false
    }
    this.#deleted = true
    // whatever the run held (cluster mode: the lease) goes back; there is no state left to mark clean
    await this.#supervisor.abandonStop().catch(err => this.#log.warn({ err }, 'could not give the session back'))
    this.#deps.publisher.deleted(this.id)
    this.#deps.onDeleted(this.id)
    return true
  }

  /** Abandons the current link, logging the device out first if asked and it is connected. */
  async #dropLink(options: { logout: boolean }): Promise<void> {
    const connected = this.#published.isConnected
    this.typing.clear()
    this.#published.linkDown()
    await this.#supervisor.drop({ logout: options.logout, connected })
  }

  #deadlineDue(): void {
    // Through the mailbox, so it cannot interleave with a reset that is moving the deadline.
    void this.#mailbox.post(async () => {
      const deadline = this.#record.qrDeadline
      if (this.#stopped || deadline === null || deadline > Date.now()) return
      this.#log.info('QR not scanned in time: deleting the session')
      await this.#destroy()
    })
  }

  #clearTimers(): void {
    this.#deadline.clear()
    this.#supervisor.cancelReconnect()
    this.typing.clear()
  }
}
