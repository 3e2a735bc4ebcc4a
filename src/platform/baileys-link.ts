/**
 * @module platform/baileys-link
 * The Baileys 7 implementation of PlatformLink: one `makeWASocket` per link, never reused. It maps socket events to
 * LinkEvents, persists credentials and address-book contacts, and implements every operation with the recipes of
 * BAILEYS-MAPPING.md (pre-downloaded media, waiting for the server ack, raw IQs where Baileys has no wrapper or a
 * broken one). Pure mapping lives in the sibling files (close-reason, group-mapping, channel-mapping,
 * status-recipients, message-content); this file is the socket glue.
 *
 * The actor worker imports this module by path and uses the default (or the named) export.
 */
import makeWASocket, {
  Browsers, generateMessageIDV2, generateWAMessage, getBinaryNodeChild, getBinaryNodeChildren, initAuthCreds,
  jidNormalizedUser, makeCacheableSignalKeyStore, S_WHATSAPP_NET, WA_CERT_DETAILS,
  type AuthenticationCreds, type BinaryNode, type GroupMetadata, type WASocket,
} from '@whiskeysockets/baileys'
import type { Logger } from 'pino'
import { GatewayError } from '../protocol/errors.js'
import type {
  Channel, ChannelPage, Destination, Group, GroupMember, MessageContent, StatusContent, TypingDestination,
} from '../protocol/spec-types.js'
import { downloadOptionsFromConfig, type DownloadOptions } from '../media/download.js'
import { sendAndAwaitAck } from './ack.js'
import { mapChannel, mapChannelPage, inviteOrUser, CHANNEL_PAGE_SIZE, type ChannelRow, type RawNewsletter } from './channel-mapping.js'
import { closeReasonOf, disconnectFacts } from './close-reason.js'
import { toStoredContacts } from './contact-events.js'
import { addressBookIndex, mapGroup, mapGroupMembers } from './group-mapping.js'
import { phoneJid } from './jids.js'
import type { CloseReason, LinkEvents, LinkFactory, LinkOptions, PlatformLink } from './link.js'
import { prepareMessageContent, prepareStatusContent, STATUS_BACKGROUND } from './message-content.js'
import { explainChannelRejection, sendNewsletterMedia, type NewsletterMediaKind } from './newsletter-media.js'
import { sandboxAgents, type SandboxAgents } from './sandbox-agents.js'
import { fetchPictureUrl, mapWithConcurrency, PictureCache } from './picture-cache.js'
import { iqErrorCode, mexQuery, MexError, queryOrTimeout, subscribedChannelsQuery } from './query.js'
import { batches, parseStatusPrivacy, pickStatusRecipients } from './status-recipients.js'

/** Recipients per status relay; one message id and one media upload are reused for every batch. */
export const STATUS_BATCH_SIZE = 500
const STATUS_JID = 'status@broadcast'
const NEWSLETTER_METADATA_QUERY_ID = '6563316087068696'
const UPLOAD_TIMEOUT_MS = 120_000

const LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']
/** Baileys logs a lot at info; its child logger runs at warn unless the gateway is quieter still. */
const quietLevel = (parent: string): string => (LEVELS.indexOf(parent) > LEVELS.indexOf('warn') ? parent : 'warn')

/** Races a socket promise against the query timeout (Baileys helpers without a timeout parameter). */
async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new GatewayError('PLATFORM_TIMEOUT')), ms)
  })
  try {
    return await Promise.race([promise, timeout])
  } finally {
    clearTimeout(timer)
  }
}

const isConnectionClosed = (err: unknown): boolean =>
  (err as { output?: { statusCode?: number } } | undefined)?.output?.statusCode === 428

class BaileysLink implements PlatformLink {
  readonly #o: LinkOptions
  readonly #log: Logger
  readonly #download: DownloadOptions
  readonly #pictures: PictureCache
  readonly #groupCache = new Map<string, GroupMetadata>()
  #sock: WASocket | undefined
  #baileysLogger: Logger | undefined
  #agents: SandboxAgents | undefined
  #open = false
  #paired = false
  #closedByUs = false
  #closeEmitted = false
  /** Aborted when the socket ends: pending ack waits fail at once instead of timing out. */
  readonly #ended = new AbortController()
  #name = ''
  #credsWrite: Promise<void> = Promise.resolve()

  readonly #events: LinkEvents

  constructor(options: LinkOptions) {
    this.#o = options
    this.#events = this.#safeEvents()
    this.#log = options.logger
    this.#pictures = new PictureCache(options.config.PICTURE_CACHE_MS)
    this.#download = {
      ...downloadOptionsFromConfig(options.config),
      ...(options.sandbox ? { ca: options.sandbox.caCert } : {}),
    }
    this.#start().catch(err => {
      this.#log.error({ err }, 'platform link failed to start')
      this.#emitClose(this.#closedByUs ? 'closed-by-us' : 'connection-lost', (err as Error).message ?? String(err))
    })
  }

  // ---- lifecycle -------------------------------------------------------------------------------------------------

  async #start(): Promise<void> {
    const { auth, sandbox, sessionId } = this.#o
    const creds = (await auth.readCreds()) ?? initAuthCreds()
    if (this.#closedByUs) return this.#emitClose('closed-by-us', 'closed before connecting')
    this.#paired = !!creds.me?.id
    this.#name = creds.me?.name ?? ''
    const logger = this.#log.child({ sessionId, component: 'baileys' }, { level: quietLevel(this.#log.level) })
    this.#baileysLogger = logger
    const sandboxConfig: Record<string, unknown> = {}
    if (sandbox) {
      // the very object noise-handler reads (PLATFORM-PROTOCOL M1): the sandbox signs its own certificate chain
      WA_CERT_DETAILS.PUBLIC_KEY = Buffer.from(sandbox.rootPublicKey, 'base64')
      this.#agents = sandboxAgents(sandbox.caCert)
      sandboxConfig.waWebSocketUrl = sandbox.wsUrl
      sandboxConfig.fetchAgent = this.#agents.https // media uploads go through node https with this agent
      sandboxConfig.options = { dispatcher: this.#agents.dispatcher } // Baileys-side downloads use global fetch
      if (sandbox.wsUrl.startsWith('wss:')) sandboxConfig.agent = this.#agents.https
    }
    const sock = makeWASocket({
      auth: { creds, keys: makeCacheableSignalKeyStore(auth.keys, logger) },
      logger,
      browser: Browsers.macOS('Chrome'),
      syncFullHistory: false,
      markOnlineOnConnect: true,
      cachedGroupMetadata: async jid => this.#groupCache.get(jid),
      ...sandboxConfig,
    })
    this.#sock = sock
    this.#wire(sock, creds)
  }

  /** The actor's handlers run inside Baileys' emitter: a throw there must not break the socket. */
  #safeEvents(): LinkEvents {
    const target = this.#o.events
    const guard = <K extends keyof LinkEvents>(name: K) => ((...args: unknown[]) => {
      try {
        ;(target[name] as (...a: unknown[]) => void)(...args)
      } catch (err) {
        this.#log.error({ err, event: name }, 'link event handler failed')
      }
    }) as LinkEvents[K]
    return { qr: guard('qr'), paired: guard('paired'), open: guard('open'), name: guard('name'), close: guard('close') }
  }

  #wire(sock: WASocket, creds: AuthenticationCreds): void {
    const events = this.#events
    sock.ev.on('creds.update', update => {
      this.#persistCreds(creds)
      if (update.me?.id) this.#paired = true
      const name = update.me?.name ?? creds.me?.name
      if (name && name !== this.#name) {
        const hadName = !!this.#name
        this.#name = name
        if (this.#open) {
          events.name(name)
          // Baileys skips `presence available` while the name is empty (§4): send it now that we have one
          if (!hadName) sock.sendPresenceUpdate('available').catch(err => this.#log.debug({ err }, 'presence available failed'))
        }
      }
    })
    sock.ev.on('connection.update', update => {
      if (update.qr) events.qr(update.qr)
      if (update.isNewLogin) {
        this.#paired = true
        const me = creds.me
        if (me?.id) events.paired({ id: me.id, ...(me.lid ? { lid: me.lid } : {}), ...(me.name ? { name: me.name } : {}) })
      }
      if (update.connection === 'open') {
        this.#open = true
        const me = creds.me
        this.#name = me?.name ?? this.#name
        events.open({ id: me?.id ?? '', ...(me?.lid ? { lid: me.lid } : {}), name: me?.name ?? '' })
        this.#resyncContactsIfEmpty(sock).catch(err => this.#log.warn({ err }, 'contact resync failed'))
      }
      if (update.connection === 'close') {
        this.#open = false
        const facts = disconnectFacts(update.lastDisconnect?.error)
        const reason = closeReasonOf({ ...facts, paired: this.#paired, closedByUs: this.#closedByUs })
        this.#emitClose(reason, `${facts.statusCode ?? ''} ${facts.message ?? ''}`.trim())
      }
    })
    const store = (entries: Parameters<typeof toStoredContacts>[0]) => {
      const rows = toStoredContacts(entries)
      if (rows.length) this.#o.contacts.upsert(rows).catch(err => this.#log.warn({ err }, 'storing contacts failed'))
    }
    sock.ev.on('contacts.upsert', store)
    sock.ev.on('contacts.update', store)
    // a picture set or removed (`imgUrl: 'changed' | 'removed'`) makes the cached URL stale
    sock.ev.on('contacts.update', updates => { for (const u of updates) if (u.id && u.imgUrl) this.#pictures.forget(u.id) })
    sock.ev.on('messaging-history.set', ({ contacts }) => store(contacts))
    sock.ev.on('groups.upsert', groups => { for (const g of groups) this.#groupCache.set(g.id, g) })
    sock.ev.on('groups.update', groups => { for (const g of groups) if (g.id) this.#groupCache.delete(g.id) })
    sock.ev.on('group-participants.update', ({ id }) => this.#groupCache.delete(id))
  }

  /**
   * The address book arrives only with the first app-state sync after pairing (BAILEYS-MAPPING §3.5); Baileys never
   * resyncs on later connections. When our contact table holds no address-book entry, ask for a fresh snapshot of
   * the contacts collection, so "reconnect the session" (the spec's CONTACTS_NOT_SYNCED advice) really helps.
   */
  async #resyncContactsIfEmpty(sock: WASocket): Promise<void> {
    if (!((sock.authState.creds.accountSyncCounter ?? 0) > 0) || !sock.authState.creds.myAppStateKeyId) return
    if ((await this.#o.contacts.all()).some(c => c.name)) return
    this.#log.info('no address-book contacts stored: requesting a contacts snapshot')
    await sock.authState.keys.set({ 'app-state-sync-version': { critical_unblock_low: null } })
    await withTimeout(sock.resyncAppState(['critical_unblock_low'], true), this.#o.config.QUERY_TIMEOUT_MS)
  }

  /** Baileys mutates creds in place: write the whole object, in order, never blocking the socket. */
  #persistCreds(creds: AuthenticationCreds): void {
    this.#credsWrite = this.#credsWrite
      .then(() => this.#o.auth.writeCreds(creds))
      .catch(err => this.#log.error({ err }, 'writing credentials failed'))
  }

  #emitClose(reason: CloseReason, detail: string): void {
    if (this.#closeEmitted) return
    this.#closeEmitted = true
    this.#open = false
    this.#ended.abort()
    this.#agents?.destroy()
    // let pending credential writes land before the actor acts on the close (e.g. reconnects with the same store)
    void this.#credsWrite.then(() => this.#events.close(reason, detail))
  }

  async close(): Promise<void> {
    if (this.#closedByUs) return
    this.#closedByUs = true
    // not awaited: end() waits for the WebSocket to close, which must not hold up a shutdown
    this.#sock?.end(undefined).catch(err => this.#log.debug({ err }, 'socket end failed'))
    if (this.#sock) this.#emitClose('closed-by-us', 'closed')
    await this.#credsWrite
  }

  async logout(): Promise<void> {
    const sock = this.#sock
    if (sock && this.#open && !this.#closedByUs) {
      this.#closedByUs = true
      try {
        await withTimeout(sock.logout(), this.#o.config.QUERY_TIMEOUT_MS)
      } catch (err) {
        this.#log.warn({ err }, 'logout on the platform failed; closing anyway')
      }
      this.#closedByUs = false // let close() run its idempotent path
    }
    await this.close()
  }

  #requireOpen(): WASocket {
    if (!this.#sock || !this.#open || this.#closedByUs) throw new GatewayError('SESSION_NOT_CONNECTED')
    return this.#sock
  }

  #ownJid(sock: WASocket): string {
    const id = sock.authState.creds.me?.id
    if (!id) throw new GatewayError('SESSION_NOT_CONNECTED')
    return jidNormalizedUser(id)
  }

  // ---- messages --------------------------------------------------------------------------------------------------

  /** Phone → the contact's LID when one is known (1:1 sends to LID-migrated contacts), else the PN JID. */
  async #phoneDestination(sock: WASocket, digits: string): Promise<string> {
    const pn = phoneJid(digits)
    try {
      const lid = await withTimeout(sock.signalRepository.lidMapping.getLIDForPN(pn), this.#o.config.QUERY_TIMEOUT_MS)
      if (lid) return jidNormalizedUser(lid)
    } catch (err) {
      this.#log.debug({ err, pn }, 'LID lookup failed, sending to the phone-number JID')
    }
    return pn
  }

  async sendMessage(destination: Destination, content: MessageContent, signal?: AbortSignal): Promise<{ messageId: string }> {
    const sock = this.#requireOpen()
    const prepared = await prepareMessageContent(content, { download: this.#download, logger: this.#log }, signal)
    try {
      const id = generateMessageIDV2(sock.user?.id)
      if (destination.kind === 'newsletter' && prepared.media) {
        const c = content as Extract<MessageContent, { type: NewsletterMediaKind }>
        const pc = prepared.content as { jpegThumbnail?: string }
        const timeoutMs = this.#o.config.QUERY_TIMEOUT_MS
        const channelSock = {
          query: sock.query,
          refreshMediaConn: (force?: boolean) => withTimeout(sock.refreshMediaConn(force), timeoutMs),
        }
        await sendNewsletterMedia(channelSock, destination.jid, id, {
          kind: prepared.media.kind,
          filePath: prepared.media.file.path,
          mimetype: c.type === 'image' ? c.image.mimetype : c.type === 'video' ? c.video.mimetype
            : c.type === 'audio' ? c.audio.mimetype : c.document.mimetype,
          ...('text' in c && c.text ? { caption: c.text } : {}),
          ...(pc.jpegThumbnail ? { jpegThumbnail: pc.jpegThumbnail } : {}),
          ...(c.type === 'video' ? { seconds: c.video.duration } : c.type === 'audio' ? { seconds: c.audio.duration } : {}),
          ...(c.type === 'document' ? { fileName: c.document.name } : {}),
        }, { ackTimeoutMs: this.#o.config.ACK_TIMEOUT_MS, uploadTimeoutMs: UPLOAD_TIMEOUT_MS, ...(this.#agents ? { agent: this.#agents.https } : {}) })
        return { messageId: id }
      }
      const jid = destination.kind === 'phone' ? await this.#phoneDestination(sock, destination.phone) : destination.jid
      await this.#sendWithAck(sock, id, () => sock.sendMessage(jid, prepared.content, { messageId: id }))
      return { messageId: id }
    } catch (err) {
      // Baileys fetches the group's metadata before a group send: an unknown group (404) or one we are not in (403)
      // surfaces as a bare iq error, which the caller should see as GROUP_NOT_FOUND.
      if (destination.kind === 'group' && [403, 404].includes(iqErrorCode(err) ?? 0)) throw new GatewayError('GROUP_NOT_FOUND')
      if (destination.kind !== 'newsletter') throw err
      throw await explainChannelRejection(err, content.type, () => this.#channelRole(sock, destination.jid))
    } finally {
      await prepared.dispose()
    }
  }

  /** The account's role in a channel, or undefined when the platform does not know the channel. */
  async #channelRole(sock: WASocket, channelId: string): Promise<{ role: string } | undefined> {
    try {
      const meta = await this.#newsletterMetadata(sock, channelId)
      return meta?.id ? { role: meta.viewer_metadata?.role ?? '' } : undefined
    } catch (err) {
      if (err instanceof MexError || iqErrorCode(err) !== undefined) return undefined
      throw err
    }
  }

  async #sendWithAck<T>(sock: WASocket, id: string, send: () => Promise<T>): Promise<T> {
    try {
      return await sendAndAwaitAck(sock.ws, id, this.#o.config.ACK_TIMEOUT_MS, send, this.#ended.signal)
    } catch (err) {
      if (err instanceof GatewayError) throw err
      if (isConnectionClosed(err)) throw new GatewayError('SESSION_NOT_CONNECTED')
      throw err
    }
  }

  // ---- status ----------------------------------------------------------------------------------------------------

  async #statusPrivacy(sock: WASocket) {
    try {
      const res = await queryOrTimeout(sock.query, {
        tag: 'iq', attrs: { to: S_WHATSAPP_NET, type: 'get', xmlns: 'status' }, content: [{ tag: 'privacy', attrs: {} }],
      }, this.#o.config.QUERY_TIMEOUT_MS)
      return parseStatusPrivacy(res)
    } catch (err) {
      if (iqErrorCode(err) === 404) return parseStatusPrivacy(undefined) // no setting stored: "my contacts"
      throw err
    }
  }

  async postStatus(status: StatusContent, signal?: AbortSignal): Promise<{ statusId: string }> {
    const sock = this.#requireOpen()
    const privacy = await this.#statusPrivacy(sock)
    const recipients = pickStatusRecipients(privacy, await this.#o.contacts.all(), this.#ownJid(sock))
    const prepared = await prepareStatusContent(status, { download: this.#download, logger: this.#log }, signal)
    try {
      const id = generateMessageIDV2(sock.user?.id)
      // generated (and media uploaded) once; each batch relays the same message under the same id
      const message = await generateWAMessage(STATUS_JID, prepared.content, {
        logger: this.#baileysLogger ?? this.#log,
        userJid: sock.authState.creds.me!.id,
        upload: sock.waUploadToServer,
        messageId: id,
        ...(status.type === 'text' ? { backgroundColor: STATUS_BACKGROUND } : {}),
      })
      for (const batch of batches(recipients, STATUS_BATCH_SIZE)) {
        await this.#sendWithAck(sock, id, () =>
          sock.relayMessage(STATUS_JID, message.message!, { messageId: id, statusJidList: batch }))
      }
      return { statusId: id }
    } finally {
      await prepared.dispose()
    }
  }

  // ---- presence --------------------------------------------------------------------------------------------------

  async presence(destination: TypingDestination, state: 'composing' | 'recording' | 'paused'): Promise<void> {
    const sock = this.#requireOpen()
    const jid = destination.kind === 'group' ? destination.jid : phoneJid(destination.phone)
    await sock.sendPresenceUpdate(state, jid)
  }

  // ---- groups ----------------------------------------------------------------------------------------------------

  #picture(sock: WASocket, jid: string): Promise<string> {
    return this.#pictures.get(jid, () => fetchPictureUrl(sock, jid, this.#o.config.QUERY_TIMEOUT_MS))
  }

  async listGroups(): Promise<Group[]> {
    const sock = this.#requireOpen()
    const all = await withTimeout(sock.groupFetchAllParticipating(), this.#o.config.QUERY_TIMEOUT_MS)
    const metas = Object.values(all ?? {})
    for (const meta of metas) this.#groupCache.set(meta.id, meta)
    return mapWithConcurrency(metas, this.#o.config.PICTURE_CONCURRENCY,
      async meta => mapGroup(meta, await this.#picture(sock, meta.id)))
  }

  async #groupMetadata(sock: WASocket, groupId: string): Promise<GroupMetadata> {
    try {
      const meta = await withTimeout(sock.groupMetadata(groupId), this.#o.config.QUERY_TIMEOUT_MS)
      if (!meta?.id) throw new GatewayError('GROUP_NOT_FOUND')
      this.#groupCache.set(meta.id, meta)
      return meta
    } catch (err) {
      if (err instanceof GatewayError) throw err
      if (isConnectionClosed(err)) throw new GatewayError('SESSION_NOT_CONNECTED')
      this.#log.debug({ err, groupId }, 'group metadata failed')
      throw new GatewayError('GROUP_NOT_FOUND')
    }
  }

  async getGroup(groupId: string): Promise<Group> {
    const sock = this.#requireOpen()
    const meta = await this.#groupMetadata(sock, groupId)
    return mapGroup(meta, await this.#picture(sock, meta.id))
  }

  async groupMembers(groupId: string): Promise<GroupMember[]> {
    const sock = this.#requireOpen()
    const meta = await this.#groupMetadata(sock, groupId)
    const pnByLid = new Map<string, string>()
    for (const p of meta.participants) {
      if (!p.id.endsWith('@lid') || p.phoneNumber) continue
      const pn = await sock.signalRepository.lidMapping.getPNForLID(p.id).catch(() => null)
      if (pn) pnByLid.set(p.id, pn)
    }
    const book = addressBookIndex(await this.#o.contacts.all())
    return mapGroupMembers(meta.participants.map(p => ({
      id: p.id, ...(p.phoneNumber ? { phoneNumber: p.phoneNumber } : {}), ...(p.lid ? { lid: p.lid } : {}),
    })), book, lid => pnByLid.get(lid))
  }

  // ---- channels --------------------------------------------------------------------------------------------------

  async #newsletterMetadata(sock: WASocket, channelId: string): Promise<RawNewsletter | undefined> {
    const data = await mexQuery<RawNewsletter | { result?: RawNewsletter } | null>(sock.query, NEWSLETTER_METADATA_QUERY_ID, {
      fetch_creation_time: true, fetch_full_image: true, fetch_viewer_metadata: true,
      input: { key: channelId, type: 'JID' },
    }, 'xwa2_newsletter', this.#o.config.QUERY_TIMEOUT_MS)
    if (!data) return undefined
    if ('id' in data && typeof data.id === 'string') return data as RawNewsletter
    return (data as { result?: RawNewsletter }).result
  }

  async listChannels(): Promise<Channel[]> {
    const sock = this.#requireOpen()
    const list = await subscribedChannelsQuery<RawNewsletter>(sock.query, this.#o.config.CHANNEL_LIST_QUERY_ID,
      this.#o.config.QUERY_TIMEOUT_MS)
    // some answers omit the viewer role or creation time: complete those from the channel's own metadata
    const full = await mapWithConcurrency(list, this.#o.config.PICTURE_CONCURRENCY, async n => {
      if (n.viewer_metadata?.role && n.thread_metadata?.creation_time) return n
      try {
        const meta = await this.#newsletterMetadata(sock, n.id)
        return meta ? { ...n, ...meta, thread_metadata: { ...n.thread_metadata, ...meta.thread_metadata } } : n
      } catch {
        return n
      }
    })
    return full.map(mapChannel)
  }

  async channelMessages(channelId: string, before?: number): Promise<ChannelPage> {
    const sock = this.#requireOpen()
    let meta: RawNewsletter | undefined
    try {
      meta = await this.#newsletterMetadata(sock, channelId)
    } catch (err) {
      if (err instanceof GatewayError && err.code === 'PLATFORM_TIMEOUT') throw err
      if (!(err instanceof MexError) && iqErrorCode(err) === undefined) throw err
      meta = undefined
    }
    if (!meta?.id) throw new GatewayError('CHANNEL_NOT_FOUND')
    const attrs: Record<string, string> = { type: 'jid', jid: channelId, count: String(CHANNEL_PAGE_SIZE) }
    if (before && before > 0) attrs.before = String(before)
    let res: BinaryNode
    try {
      res = await queryOrTimeout(sock.query, {
        tag: 'iq', attrs: { to: S_WHATSAPP_NET, type: 'get', xmlns: 'newsletter' }, content: [{ tag: 'messages', attrs }],
      }, this.#o.config.QUERY_TIMEOUT_MS)
    } catch (err) {
      if (iqErrorCode(err) !== undefined) throw new GatewayError('CHANNEL_NOT_FOUND')
      throw err
    }
    const list = getBinaryNodeChild(res, 'messages')
    const rows: ChannelRow[] = (list ? getBinaryNodeChildren(list, 'message') : []).map(m => {
      const plain = getBinaryNodeChild(m, 'plaintext')?.content
      return {
        id: m.attrs.id ?? '',
        serverId: Number(m.attrs.server_id ?? 0),
        t: Number(m.attrs.t ?? 0),
        plaintext: plain instanceof Uint8Array ? plain : typeof plain === 'string' ? Buffer.from(plain, 'binary') : undefined,
      }
    })
    return mapChannelPage(rows, inviteOrUser(meta.thread_metadata?.invite, channelId))
  }

  // ---- profile ---------------------------------------------------------------------------------------------------

  async ownPicture(): Promise<string> {
    const sock = this.#requireOpen()
    return this.#picture(sock, this.#ownJid(sock))
  }
}

/** Creates a link and starts connecting right away (credentials are read asynchronously). */
export const createBaileysLink: LinkFactory = options => new BaileysLink(options)

export default createBaileysLink
