/**
 * @module actors/session/link-supervisor
 * The session's current platform link: opening one (sandbox trust, session run, factory), dropping it (logout or
 * close), and reconnecting after a backoff. It knows nothing of session states; link events go to the lifecycle.
 *
 * Each link gets a generation number. Dropping or replacing the link bumps the generation, and events of a link
 * from an older generation are ignored, so one session never has two live links and a late `close` of an
 * abandoned link cannot trigger a second reconnect.
 */
import type { Logger } from 'pino'
import type { LinkEvents, PlatformLink, ProxyRoute, SessionRun, SandboxTrust } from '../../platform/link.js'
import type { AuthStore, Store } from '../../storage/types.js'
import { reconnectDelay } from './backoff.js'
import { countReconnect } from '../../metrics/observe.js'
import { linkSettings } from '../../platform/settings.js'
import { formatClientVersion, type ClientVersion } from '../../platform/client-version.js'
import type { SessionSettings, ShardPlatform } from './deps.js'

export interface LinkSupervisorDeps {
  id: string
  store: Store
  settings: SessionSettings
  platform: ShardPlatform
  log: Logger
  /** A stopped actor opens no links and schedules no reconnects. */
  isStopped: () => boolean
  /** Where the current link's events go (never those of an abandoned link). */
  events: LinkEvents
  /** The proxy the next link goes through, read as each link opens (a change applies to the next connection). */
  proxy: () => ProxyRoute | undefined
}

export class LinkSupervisor {
  readonly #deps: LinkSupervisorDeps
  #link: PlatformLink | undefined
  /** Bumped whenever the current link is abandoned; events carry the generation they were created with. */
  #generation = 0
  #reconnectTimer: NodeJS.Timeout | undefined
  #attempt = 0
  /** The web client version the current (or last) link named; undefined: the library's own. */
  #clientVersion: ClientVersion | undefined
  /** Tells whether the session's last run ended cleanly, and gives each link the auth store to use. */
  readonly #run: SessionRun

  constructor(deps: LinkSupervisorDeps) {
    this.#deps = deps
    this.#run = deps.platform.createSessionRun(deps.id, deps.store.auth(deps.id), deps.log)
  }

  /** After a clean stop (link closed, commands settled): the next start may trust the stored state. */
  async markCleanStop(): Promise<void> {
    await this.#run.release()
  }

  /** After a stop whose commands did not settle: records nothing, gives back what the run held (SessionRun.abandon). */
  async abandonStop(): Promise<void> {
    await this.#run.abandon?.()
  }

  /**
   * Before removing the session's data: whether this process may (cluster mode: it holds, or could take, the
   * session's lease; false when another node runs the session).
   */
  async claim(): Promise<boolean> {
    try {
      await this.#run.claim?.()
      return true
    } catch (err) {
      if ((err as { code?: unknown }).code === 'LEASE_HELD') return false
      throw err
    }
  }

  /** The web client version the last link named (`a.b.c`, or undefined for the library's own), and whether
   * PLATFORM_CLIENT_VERSION pinned it: what a refusal of it says (not-connected.ts). */
  get clientVersion(): { version: string | undefined; pinned: boolean } {
    const version = this.#clientVersion
    return { version: version && formatClientVersion(version), pinned: this.#deps.platform.clientVersion.pinned }
  }

  /** The current link; undefined while none is open or after it closed. */
  get link(): PlatformLink | undefined {
    return this.#link
  }

  /** Opens a new link now; on failure schedules a retry. */
  async open(): Promise<void> {
    const { id, store, settings, platform, log, isStopped, events, proxy } = this.#deps
    if (isStopped()) return
    clearTimeout(this.#reconnectTimer)
    const generation = ++this.#generation
    let sandbox: SandboxTrust | undefined
    let auth: AuthStore
    try {
      sandbox = await platform.sandboxTrust()
    } catch (err) {
      log.warn({ err }, 'sandbox trust unavailable')
      if (generation === this.#generation) this.scheduleReconnect()
      return
    }
    try {
      auth = await this.#run.authForLink()
    } catch (err) {
      // cluster mode (cluster/store/leased-runs.ts): another process owns the session; try again after the backoff
      if ((err as { code?: unknown }).code === 'LEASE_HELD') log.warn((err as Error).message)
      else log.error({ err }, "could not read the session's run marker")
      if (generation === this.#generation) this.scheduleReconnect()
      return
    }
    // never throws: the pinned, learned, stored or bundled version (client-version-keeper.ts)
    const clientVersion = await platform.clientVersion.current()
    this.#clientVersion = clientVersion
    if (isStopped() || generation !== this.#generation) return
    const isCurrent = () => generation === this.#generation && !isStopped()
    const currentEvents: LinkEvents = {
      qr: qr => isCurrent() && events.qr(qr),
      paired: me => isCurrent() && events.paired(me),
      open: me => isCurrent() && events.open(me),
      name: name => isCurrent() && events.name(name),
      restrictions: update => isCurrent() && events.restrictions(update),
      conversations: phones => isCurrent() && events.conversations(phones),
      close: (reason, detail) => {
        if (!isCurrent()) return
        this.#link = undefined // a closed link is dead: the lifecycle decides whether to open another
        // the platform refused the version this link named: the next link looks up the current one first
        if (reason === 'client-version-refused') platform.clientVersion.refused(clientVersion)
        events.close(reason, detail)
      },
    }
    const route = proxy()
    try {
      this.#link = platform.createLink({
        id,
        auth,
        contacts: store.contacts(id),
        sentMessages: store.sentMessages(id, {
          maxAgeMs: settings.RETRY_STORE_MAX_AGE_MS,
          maxMessages: settings.RETRY_STORE_MAX_MESSAGES,
        }),
        logger: log,
        settings: linkSettings(settings),
        sandbox,
        ...(route ? { proxy: route } : {}),
        ...(clientVersion ? { clientVersion } : {}),
        events: currentEvents,
      })
    } catch (err) {
      log.error({ err }, 'could not create the platform link')
      this.#link = undefined
      this.scheduleReconnect()
    }
  }

  /**
   * Abandons the current link (its late events are ignored). With `logout` and a `connected` link the device
   * is logged out first; otherwise the link is just closed.
   */
  async drop(options: { logout: boolean; connected: boolean }): Promise<void> {
    this.#generation++
    clearTimeout(this.#reconnectTimer)
    const link = this.#link
    this.#link = undefined
    if (!link) return
    try {
      if (options.logout && options.connected) await link.logout()
      else await link.close()
    } catch (err) {
      this.#deps.log.warn(
        { err },
        options.logout ? 'logout failed; credentials are cleared anyway' : 'link close failed',
      )
      await link.close().catch(() => undefined)
    }
  }

  /** Opens a new link after the next backoff delay (RECONNECT_MIN_MS doubling up to RECONNECT_MAX_MS). */
  scheduleReconnect(): void {
    if (this.#deps.isStopped()) return
    clearTimeout(this.#reconnectTimer)
    const { RECONNECT_MIN_MS, RECONNECT_MAX_MS } = this.#deps.settings
    const delay = reconnectDelay(this.#attempt++, RECONNECT_MIN_MS, RECONNECT_MAX_MS)
    this.#reconnectTimer = setTimeout(() => void this.open(), delay)
    countReconnect()
  }

  /** A link opened (or pairing restarted): the next drop starts the backoff from the shortest delay. */
  resetBackoff(): void {
    this.#attempt = 0
  }

  cancelReconnect(): void {
    clearTimeout(this.#reconnectTimer)
  }
}
