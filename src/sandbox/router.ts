/**
 * @module sandbox/router
 * Decides what an authenticated connection is (registration → QR refs; login → success or 401) and routes every
 * stanza: iqs to the xmlns handlers, messages to the fan-out, chat states to presence logs.
 */
import type { BinaryNode } from '@whiskeysockets/baileys'
import type { AppStateKeys } from './app-state.js'
import { formatClientVersion, payloadVersion, refusesVersion } from './client-version.js'
import type { CompanionConnection, ConnectionRouter } from './connection.js'
import type { SandboxContext } from './context.js'
import type { IqHandler } from './handlers/types.js'
import type { LinkCodeRegistry } from './link-code.js'
import type { MessageRouter } from './messages.js'
import { child, children, iqResult, node, unixNow } from './nodes.js'
import type { PairingRegistry } from './pairing.js'
import { sendInitialSync } from './sync.js'

export class StanzaRouter implements ConnectionRouter {
  readonly connections = new Set<CompanionConnection>()

  constructor(
    private readonly ctx: SandboxContext,
    private readonly pairing: PairingRegistry,
    private readonly linkCodes: LinkCodeRegistry,
    private readonly messages: MessageRouter,
    private readonly handlers: Record<string, IqHandler>,
    private readonly appState: AppStateKeys,
  ) {}

  async onAuthenticated(conn: CompanionConnection): Promise<void> {
    this.connections.add(conn)
    const payload = conn.payload
    if (refusesVersion(this.ctx.clientVersion, payload)) {
      // the platform's answer to a stale web client, registration or login alike: 405, then the stream ends
      this.ctx.stats.bump('clientVersionRefusals')
      return this.#refuse(conn, '405', 'client too old', { version: formatClientVersion(payloadVersion(payload)) })
    }
    if (payload?.devicePairingData) {
      this.pairing.register(conn)
      return
    }
    const phone = payload?.username != null ? String(payload.username) : ''
    const device = Number(payload?.device ?? 0)
    // a banned or restricted account (fault switch refuseAccount)
    if (phone && this.ctx.faults.current.refuseAccount === phone)
      return this.#refuse(conn, '403', 'account refused', { phone, device })
    const account = this.ctx.accounts.get(phone)
    const companion = account?.companions.get(device)
    if (!account || !companion || !conn.clientStatic || !companion.noiseKey.equals(conn.clientStatic))
      return this.#refuse(conn, '401', 'device not linked', { phone, device })
    // A second login of the same device replaces the first, as on the platform. The older link is superseded before
    // the 440 goes out, so that whatever it still sends is counted and dropped (GET /devices), never delivered.
    const previous = companion.link
    if (previous && previous !== conn) {
      previous.supersede()
      previous.streamError(440, node('conflict', { type: 'replaced' }))
      this.ctx.devices.replacedKick(phone, device)
    }
    companion.link = conn
    conn.account = account
    conn.companion = companion
    conn.send(
      node('success', {
        t: unixNow(),
        props: '1',
        abprops: '1',
        location: 'sandbox',
        creation: unixNow(),
        lid: `${account.lid}:${device}@lid`,
      }),
    )
    // Whatever arrived while the device was away, then the end-of-offline marker Baileys waits for.
    const queued = companion.offline.splice(0)
    for (const stanza of queued) conn.send(stanza)
    conn.send(node('ib', {}, [node('offline', { count: String(queued.length) })]))
    this.ctx.devices.login(phone, device, conn.remoteAddress, companion.name) // also GET /stats `logins`
    this.ctx.logger.info({ phone, device }, 'companion logged in')
  }

  /** Refuses a connection at login as the platform does: `<failure reason=…/>`, then the stream ends. */
  #refuse(conn: CompanionConnection, reason: string, why: string, facts: Record<string, unknown>): void {
    this.ctx.logger.info(facts, `login refused: ${why}`)
    conn.send(node('failure', { reason, location: 'sandbox' }))
    setTimeout(() => conn.terminate(), 100)
  }

  async onNode(conn: CompanionConnection, stanza: BinaryNode): Promise<void> {
    switch (stanza.tag) {
      case 'iq':
        return this.#onIq(conn, stanza)
      case 'message':
        return this.messages.onClientMessage(conn, stanza)
      case 'chatstate':
        return this.#onChatState(conn, stanza)
      case 'receipt':
        conn.send(
          node('ack', {
            class: 'receipt',
            id: stanza.attrs.id ?? '',
            from: stanza.attrs.to ?? 's.whatsapp.net',
            ...(stanza.attrs.type ? { type: stanza.attrs.type } : {}),
          }),
        )
        return
      case 'presence':
        // the companion's own availability (`available` shows the account online and mutes the phone's notifications)
        if (conn.account && conn.companion && stanza.attrs.type)
          this.ctx.devices.presence(conn.account.phone, conn.companion.device, stanza.attrs.type)
        return
      default:
        // ib, ack, notification acks: nothing the platform needs to answer.
        return
    }
  }

  onSupersededNode(conn: CompanionConnection, stanza: BinaryNode): void {
    if (conn.account && conn.companion) this.ctx.devices.supersededStanza(conn.account.phone, conn.companion.device)
    // warn: a gateway that hands sessions over between nodes should never cause this (cluster tests assert 0)
    this.ctx.logger.warn(
      {
        conn: conn.id,
        phone: conn.account?.phone,
        device: conn.companion?.device,
        tag: stanza.tag,
        xmlns: stanza.attrs.xmlns,
        id: stanza.attrs.id,
      },
      'stanza on a superseded connection dropped',
    )
  }

  async #onIq(conn: CompanionConnection, iq: BinaryNode): Promise<void> {
    if (iq.attrs.type !== 'get' && iq.attrs.type !== 'set') return
    const handler = this.handlers[iq.attrs.xmlns ?? '']
    let reply: BinaryNode | undefined
    if (handler) reply = await handler(this.ctx, conn, iq)
    else
      this.ctx.logger.debug(
        { xmlns: iq.attrs.xmlns, tag: children(iq)[0]?.tag },
        'unhandled iq answered with an empty result',
      )
    conn.send(reply ?? iqResult(iq))
    // The digest check is the last iq before `open`: prekeys are uploaded, so the phone can now reach the companion.
    if (iq.attrs.xmlns === 'encrypt' && child(iq, 'digest') && conn.account && conn.companion) {
      const { account, companion } = conn
      setTimeout(() => {
        sendInitialSync(this.ctx, this.appState, account, companion).catch(err =>
          this.ctx.logger.warn({ err }, 'initial sync failed'),
        )
      }, 50)
    }
  }

  #onChatState(conn: CompanionConnection, stanza: BinaryNode): void {
    const sender = conn.account
    const to = stanza.attrs.to ?? ''
    const stateNode = children(stanza)[0]
    if (!sender || !stateNode) return
    const state = stateNode.tag === 'composing' && stateNode.attrs.media === 'audio' ? 'recording' : stateNode.tag
    if (state !== 'composing' && state !== 'recording' && state !== 'paused') return
    const at = new Date().toISOString()
    if (to.endsWith('@g.us')) {
      const group = this.ctx.world().groups.find(g => g.id === to)
      for (const p of group?.participants ?? []) {
        if (p.phone !== sender.phone)
          this.ctx.accounts.ensure(p.phone).presence.push({ from: sender.phone, chat: to, state, at })
      }
      return
    }
    const target = this.ctx.accounts.resolve(to)?.account
    target?.presence.push({ from: sender.phone, chat: sender.phone, state, at })
  }

  onClose(conn: CompanionConnection): void {
    this.connections.delete(conn)
    this.pairing.forget(conn)
    this.linkCodes.forget(conn)
    if (conn.companion) this.ctx.stats.bump('loginsEnded') // a logged-in connection ended, for whatever reason
    if (conn.companion?.link === conn) conn.companion.link = undefined
  }
}
