/**
 * @module sandbox/messages
 * What the platform does with a `<message>` a client sends: ack it (or nack it when a fault says so), fan the
 * per-device ciphertexts out, and have each recipient phone actually decrypt its copy — pkmsg/msg with its 1:1
 * session, skmsg with the sender key it got earlier — then record what it saw in that account's inbox.
 * Copies for other companions are relayed to their live links.
 */
import { proto, unpadRandomMax16 } from '@whiskeysockets/baileys'
import type { BinaryNode } from '@whiskeysockets/baileys'
import {
  GroupCipher,
  GroupSessionBuilder,
  SenderKeyDistributionMessage,
  SenderKeyName,
} from '@whiskeysockets/baileys/lib/Signal/Group/index.js'
import { ProtocolAddress, SessionCipher } from 'libsignal'
import { deliverToCompanion, type Account } from './accounts.js'
import type { CompanionConnection } from './connection.js'
import type { SandboxContext } from './context.js'
import { buildInboxMessage, type InboxMeta } from './inbox.js'
import { bytes, child, children, node, unixNow } from './nodes.js'
import { channelPostRefusal } from './channel-post-rules.js'
import { askAgain, retryReceipt } from './retry-receipt.js'
import type { ChannelStore } from './channels.js'
import { worldAccount } from './world.js'

interface EncCopy {
  type: string
  ciphertext: Buffer
}

const STATUS_JID = 'status@broadcast'

export class MessageRouter {
  /** Per-recipient work queue: decrypts must run in order (ratchets), and inbox order is arrival order. */
  readonly #queues = new Map<string, Promise<void>>()
  /** group/status jid → sender "lid:device" → phones holding that sender key. */
  readonly #senderKeyHolders = new Map<string, Map<string, Set<string>>>()

  constructor(
    private readonly ctx: SandboxContext,
    private readonly channels: ChannelStore,
  ) {}

  #enqueue(phone: string, job: () => Promise<void>, what: Record<string, unknown> = {}): Promise<void> {
    const next = (this.#queues.get(phone) ?? Promise.resolve()).then(job).catch(err => {
      this.ctx.logger.warn({ err, phone, ...what }, 'recipient phone failed to process a message')
    })
    this.#queues.set(phone, next)
    return next
  }

  /** Resolves when every queued decrypt has finished (Sandbox.settled(): read an inbox without polling). */
  async settled(): Promise<void> {
    await Promise.all(this.#queues.values())
  }

  async onClientMessage(conn: CompanionConnection, stanza: BinaryNode): Promise<void> {
    const sender = conn.account
    const senderDevice = conn.companion?.device
    const id = stanza.attrs.id ?? ''
    const to = stanza.attrs.to ?? ''
    if (!sender || senderDevice === undefined) return
    if (to.endsWith('@newsletter')) {
      if (!this.channels.canPost(to, sender.phone)) {
        conn.send(node('ack', { class: 'message', id, from: to, t: unixNow(), error: '479' }))
        return
      }
      // Only with the strictChannelPosts switch: whether the live platform refuses such posts is unverified.
      const refusal = this.ctx.faults.strictChannelPosts
        ? channelPostRefusal(bytes(child(stanza, 'plaintext')))
        : undefined
      if (refusal) {
        conn.send(node('ack', { class: 'message', id, from: to, t: unixNow(), error: refusal }))
        return
      }
      const serverId = this.channels.post(to, id, bytes(child(stanza, 'plaintext')), stanza.attrs.media_id)
      conn.send(
        node('ack', {
          class: 'message',
          id,
          from: to,
          t: unixNow(),
          ...(serverId ? { server_id: String(serverId) } : {}),
        }),
      )
      return
    }
    const target = this.ctx.accounts.resolve(to)
    const isGroup = to.endsWith('@g.us')
    const isStatus = to === STATUS_JID
    const peer = !isGroup && !isStatus ? target?.account.phone : undefined
    const rejectCode =
      this.ctx.faults.rejectCodeFor(target?.account.phone) ??
      this.#addressingRefusal(to, target?.account) ??
      (peer && this.ctx.restrictions.refusesNewChat(sender.phone, peer) ? 463 : undefined)
    if (rejectCode) {
      conn.send(node('ack', { class: 'message', id, from: to, t: unixNow(), error: String(rejectCode) }))
      return
    }
    conn.send(node('ack', { class: 'message', id, from: to, t: unixNow() }))
    if (peer) this.ctx.restrictions.noteExchange(sender.phone, peer)
    // GET /stats `statusStanzas`: stanzas per status id (a big audience arrives in several batches under one id)
    if (isStatus) this.ctx.stats.tally('statusStanzas', id)
    const chatFor = (): string => (isStatus ? STATUS_JID : isGroup ? to : sender.phone)
    const senderKeyId = `${sender.lid}:${senderDevice}`
    const senderAddress = new ProtocolAddress(sender.lid, senderDevice)

    // Collect per-device copies: <participants><to jid><enc/></to></participants>, or a direct <enc> to `to`.
    const copies = new Map<string, EncCopy>()
    for (const toNode of children(child(stanza, 'participants'), 'to')) {
      const enc = child(toNode, 'enc')
      const ciphertext = bytes(enc)
      if (toNode.attrs.jid && enc && ciphertext)
        copies.set(toNode.attrs.jid, { type: enc.attrs.type ?? '', ciphertext })
    }
    let skmsg: Buffer | undefined
    for (const enc of children(stanza, 'enc')) {
      const ciphertext = bytes(enc)
      if (!ciphertext) continue
      if (enc.attrs.type === 'skmsg') skmsg = ciphertext
      else copies.set(to, { type: enc.attrs.type ?? '', ciphertext })
    }

    const phonesWithCopies = new Set<string>()
    const relayed = new Set<string>()
    for (const [jid, copy] of copies) {
      const resolved = this.ctx.accounts.resolve(jid)
      if (!resolved) continue
      const { account, device } = resolved
      if (device !== 0) {
        relayed.add(`${account.phone}:${device}`)
        this.#relayToCompanion(account, device, sender, senderDevice, stanza, copy, skmsg)
        continue
      }
      const senderCompanion = conn.companion
      if (
        account !== sender &&
        !isGroup &&
        !isStatus &&
        senderCompanion &&
        this.ctx.faults.failsDecryption(account.phone, id)
      ) {
        // fault failDecryptOf: the phone cannot decrypt this copy and asks the sending device for the message again
        void this.#enqueue(account.phone, async () => {
          this.ctx.logger.warn(
            { id, phone: account.phone },
            'recipient phone failed to decrypt (fault): retry receipt sent',
          )
          this.ctx.stats.tally('retryReceipts', id) // GET /stats: which messages a phone asked for again
          askAgain(senderCompanion, retryReceipt(account, id, to), this.ctx.faults.retryAfterReconnect)
        })
        continue
      }
      phonesWithCopies.add(account.phone)
      void this.#enqueue(
        account.phone,
        async () => {
          const message = await this.#decrypt1to1(account, senderAddress, copy)
          const skdm = message.senderKeyDistributionMessage
          if (skdm?.groupId && skdm.axolotlSenderKeyDistributionMessage) {
            await new GroupSessionBuilder(account.simPhone.store).process(
              new SenderKeyName(skdm.groupId, senderAddress),
              new SenderKeyDistributionMessage(null, null, null, null, skdm.axolotlSenderKeyDistributionMessage),
            )
            this.#holders(skdm.groupId, senderKeyId).add(account.phone)
          }
          if (account === sender) return // the sender's own phone gets a deviceSentMessage copy; not an inbox item
          await this.#record(account, message, { id, chat: chatFor(), from: sender.phone, status: isStatus, to }, conn)
        },
        { id, from: `${sender.phone}:${senderDevice}`, type: copy.type },
      )
    }

    if (skmsg && isGroup) {
      // Companions that already hold the sender key get only the skmsg.
      const group = this.ctx.world().groups.find(g => g.id === to)
      for (const participant of group?.participants ?? []) {
        const account = this.ctx.accounts.get(participant.phone)
        for (const companion of account?.companions.values() ?? []) {
          const key = `${participant.phone}:${companion.device}`
          if (relayed.has(key) || (account === sender && companion.device === senderDevice) || !account) continue
          this.#relayToCompanion(account, companion.device, sender, senderDevice, stanza, undefined, skmsg)
        }
      }
    }

    if (skmsg && (isGroup || isStatus)) {
      const ciphertext = skmsg
      // A status has no member list on the server: the platform fans it out to the devices the stanza names in
      // <participants> only, so a phone that kept an earlier status sender key but is not named now gets nothing.
      const holders = isStatus ? [] : [...this.#holders(to, senderKeyId)]
      // Phones that got their key in this very stanza are queued after their pkmsg job, so they hold it by then.
      for (const phone of new Set([...holders, ...phonesWithCopies])) {
        const account = this.ctx.accounts.get(phone)
        // A status also shows on the sender's own phone ("My status"): the platform expects the own number listed.
        if (!account || (account === sender && !isStatus)) continue
        void this.#enqueue(phone, async () => {
          if (!this.#holders(to, senderKeyId).has(phone)) return
          const cipher = new GroupCipher(account.simPhone.store, new SenderKeyName(to, senderAddress))
          const plain = await cipher.decrypt(ciphertext)
          const message = proto.Message.decode(unpadRandomMax16(plain))
          await this.#record(account, message, { id, chat: chatFor(), from: sender.phone, status: isStatus, to }, conn)
        })
      }
    }
  }

  /** 463 for a 1:1 message addressed to the phone-number JID of an account the platform moved to LID addressing. */
  #addressingRefusal(to: string, account: Account | undefined): number | undefined {
    if (!account || !to.endsWith('@s.whatsapp.net')) return undefined
    return worldAccount(this.ctx.world(), account.phone)?.lidOnly ? 463 : undefined
  }

  #holders(group: string, senderKeyId: string): Set<string> {
    let bySender = this.#senderKeyHolders.get(group)
    if (!bySender) this.#senderKeyHolders.set(group, (bySender = new Map()))
    let holders = bySender.get(senderKeyId)
    if (!holders) bySender.set(senderKeyId, (holders = new Set()))
    return holders
  }

  async #decrypt1to1(account: Account, senderAddress: ProtocolAddress, copy: EncCopy): Promise<proto.Message> {
    const cipher = new SessionCipher(account.simPhone.store, senderAddress)
    let plain: Buffer
    if (copy.type === 'pkmsg') plain = await cipher.decryptPreKeyWhisperMessage(copy.ciphertext)
    else if (copy.type === 'msg') plain = await cipher.decryptWhisperMessage(copy.ciphertext)
    else throw new Error(`unexpected enc type ${copy.type}`)
    return proto.Message.decode(unpadRandomMax16(plain))
  }

  async #record(account: Account, message: proto.Message, meta: InboxMeta, conn?: CompanionConnection): Promise<void> {
    const record = await buildInboxMessage(message, meta, this.ctx.mediaHost(), this.ctx.caCert)
    if (!record) return
    if (meta.status) {
      const saved = worldAccount(this.ctx.world(), account.phone)?.contacts ?? []
      record.visible = meta.from === account.phone || saved.some(c => c.phone === meta.from)
    }
    account.inbox.push(record)
    // The recipient phone confirms delivery to the sender, as a real phone does (Baileys: status DELIVERY_ACK).
    if (conn && !conn.closed) {
      const attrs: Record<string, string> = { id: meta.id, t: unixNow() }
      if (meta.chat === meta.from) attrs.from = account.pnJid
      else {
        attrs.from = meta.chat
        attrs.participant = account.pnJid
      }
      conn.send(node('receipt', attrs))
    }
  }

  /** Another companion (e.g. a second gateway session) is a recipient: pass its copy on as the platform would. */
  #relayToCompanion(
    account: Account,
    device: number,
    sender: Account,
    senderDevice: number,
    stanza: BinaryNode,
    copy: EncCopy | undefined,
    skmsg: Buffer | undefined,
  ): void {
    const companion = account.companions.get(device)
    if (!companion) return
    const to = stanza.attrs.to ?? ''
    const isGroupish = to.endsWith('@g.us') || to === STATUS_JID
    const senderJid = `${sender.phone}:${senderDevice}@s.whatsapp.net`
    const attrs: Record<string, string> = { id: stanza.attrs.id ?? '', t: unixNow(), type: stanza.attrs.type ?? 'text' }
    if (isGroupish) {
      attrs.from = to
      attrs.participant = senderJid
    } else if (account === sender) {
      // Own other device: a sent-message copy, addressed like the platform does for peer devices.
      attrs.from = senderJid
      attrs.recipient = to
    } else {
      attrs.from = senderJid
      attrs.sender_lid = `${sender.lid}:${senderDevice}@lid`
    }
    const content: BinaryNode[] = copy ? [node('enc', { v: '2', type: copy.type }, copy.ciphertext)] : []
    if (skmsg && isGroupish) content.push(node('enc', { v: '2', type: 'skmsg' }, skmsg))
    if (!content.length) return
    this.ctx.logger.debug({ phone: account.phone, device }, 'relaying message to companion')
    deliverToCompanion(companion, node('message', attrs, content))
  }
}
