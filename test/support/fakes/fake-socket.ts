/**
 * @module test/support/fakes/fake-socket
 * A stand-in for Baileys' socket, enough for the link's glue: event emitters for `ev` and `ws`, scripted queries,
 * and sends that answer with a server ack. Used with `vi.mock('@whiskeysockets/baileys')` by ./baileys-link-harness.ts.
 */
import { EventEmitter } from 'node:events'
import type { BinaryNode } from '@whiskeysockets/baileys'

export interface SentRecord {
  jid: string
  content: unknown
  opts: Record<string, unknown>
}

export class FakeSocket {
  readonly ev = new EventEmitter()
  readonly ws = new EventEmitter()
  readonly config: Record<string, unknown>
  readonly authState: { creds: { me?: { id: string; lid?: string; name?: string } } }
  sent: SentRecord[] = []
  relayed: Array<{
    jid: string
    message: Record<string, unknown>
    opts: { messageId: string; statusJidList?: string[] }
  }> = []
  uploads = 0
  ended = false
  /** Attributes added to every ack (e.g. { error: '463' }); null = never ack. */
  ackAttrs: Record<string, string> | null = {}
  onQuery: (node: BinaryNode) => BinaryNode | undefined | Promise<BinaryNode | undefined> = () => undefined
  pictureCalls: string[] = []
  lidByPn = new Map<string, string>()
  presence: Array<[string, string | undefined]> = []
  groups: Record<
    string,
    { id: string; subject: string; creation?: number; participants: Array<{ id: string; phoneNumber?: string }> }
  > = {}

  constructor(config: Record<string, unknown>) {
    this.config = config
    this.authState = { creds: (config.auth as { creds: FakeSocket['authState']['creds'] }).creds }
  }

  get user() {
    return this.authState.creds.me
  }

  #ack(id: string) {
    if (this.ackAttrs === null) return
    const attrs = this.ackAttrs
    setTimeout(() => this.ws.emit('CB:ack,class:message', { tag: 'ack', attrs: { class: 'message', id, ...attrs } }), 5)
  }

  query = async (node: BinaryNode, _timeout?: number) => this.onQuery(node)

  sendMessage = async (jid: string, content: unknown, opts: Record<string, unknown>) => {
    this.sent.push({ jid, content, opts })
    this.#ack(opts.messageId as string)
    return { key: { id: opts.messageId } }
  }

  relayMessage = async (
    jid: string,
    message: Record<string, unknown>,
    opts: { messageId: string; statusJidList?: string[] },
  ) => {
    this.relayed.push({ jid, message, opts })
    this.#ack(opts.messageId)
    return opts.messageId
  }

  waUploadToServer = async () => {
    this.uploads++
    return { mediaUrl: 'https://media.test/m', directPath: '/m/1' }
  }

  signalRepository = {
    lidMapping: {
      getLIDForPN: async (pn: string) => this.lidByPn.get(pn) ?? null,
      getPNForLID: async () => null,
    },
  }

  sendPresenceUpdate = async (type: string, jid?: string) => {
    this.presence.push([type, jid])
  }

  profilePictureUrl = async (jid: string) => {
    this.pictureCalls.push(jid)
    if (jid.startsWith('nopic')) throw Object.assign(new Error('item-not-found'), { data: 404 })
    return `https://pps.test/${jid.split('@')[0]}.jpg`
  }

  groupFetchAllParticipating = async () => this.groups

  groupMetadata = async (jid: string) => {
    const g = this.groups[jid]
    if (!g) throw Object.assign(new Error('item-not-found'), { data: 404, output: { statusCode: 404 } })
    return g
  }

  refreshMediaConn = async () => ({ hosts: [{ hostname: '127.0.0.1:1' }], auth: 'a' })

  logout = async () => {
    await this.end(Object.assign(new Error('Intentional Logout'), { output: { statusCode: 401 } }))
  }

  end = async (error: Error | undefined) => {
    if (this.ended) return
    this.ended = true
    await new Promise(r => setTimeout(r, 5)) // Baileys awaits the WebSocket close first
    this.ev.emit('connection.update', { connection: 'close', lastDisconnect: { error, date: new Date() } })
    this.ev.removeAllListeners('connection.update')
  }

  // helpers for tests
  open(me = { id: '5500000000000:7@s.whatsapp.net', lid: '900@lid' }) {
    this.authState.creds.me = me
    this.ev.emit('connection.update', { connection: 'open' })
  }
}
