/**
 * @module platform/baileys/link/retry-messages
 * Answers retry receipts after a restart. A recipient's phone that cannot decrypt a message sends a retry receipt,
 * and the sender must encrypt the original again. Baileys looks the message up in its own memory (512 messages,
 * 5 minutes, gone with the process), then asks the `getMessage` socket option; unanswered, the recipient shows
 * "waiting for this message" for ever although the client got 200. This layer keeps every acknowledged 1:1 and
 * group message in the session's sent-message store (sealed with DATA_KEY, bounded by RETRY_STORE_MAX_AGE_MS and
 * RETRY_STORE_MAX_MESSAGES) and serves `getMessage` from it.
 *
 * Only the chat a message went to may have it again: Baileys re-encrypts for whoever the receipt came from, so the
 * receipt's chat (without device; a contact's LID and phone JID count as one) must be one the message was sent to.
 * Statuses and channel posts are not kept (channel posts are not encrypted; a status has no one chat to check).
 *
 * One commit per send: Baileys relays a message inside a key-store transaction that commits the advanced
 * Signal state after the stanza is written, and from inside it records the message in its retry manager
 * (`addRecentMessage`, Baileys 7.0.0-rc14). A message the gateway is sending (`expect`) is added to that transaction
 * there, as an entry the store writes to its sent-message table in the same commit (`SentMessageStore.keyWrite`);
 * `sendMessage` resolves only after that commit, so the row is committed before the ack is even awaited, and no
 * second transaction follows the ack. A store that cannot join a key write (or a send outside a transaction) still
 * writes the row after the ack (`remember`). A row so kept may belong to a message whose ack then failed: it was
 * written to the platform all the same, so a retry receipt for it deserves the answer.
 *
 * One copy (CPU and memory): a message whose row joins the commit is not also given to Baileys' memory when the store
 * keeps at least as many messages as that memory would. Until the commit is made, the message waits in
 * `#committing` for a retry receipt that comes back first.
 */
import {
  isLidUser,
  isPnUser,
  jidNormalizedUser,
  proto,
  type SignalDataSet,
  type WAMessageKey,
  type WASocket,
} from '@whiskeysockets/baileys'
import type { Logger } from 'pino'
import { patchApplies } from '../patches/inventory.js'
import type { SentMessage, SentMessageStore } from '../../../storage/sent-messages.js'

/**
 * Messages Baileys' retry manager keeps in memory per socket (`RECENT_MESSAGES_SIZE`, for 5 minutes; Baileys
 * 7.0.0-rc14, `Utils/message-retry-manager.js`): a store keeping at least this many answers every retry it would.
 */
export const BAILEYS_RECENT_MESSAGES = 512

/** How often expired rows are removed while a link is open (at most; sooner when the age limit is shorter). */
const PRUNE_EVERY_MS = 60_000

/** The part of Baileys' MessageRetryManager (`sock.messageRetryManager`) the key-write join wraps. */
interface RecentMessages {
  addRecentMessage(to: string, id: string, message: proto.IMessage): void
}

export class RetryMessages {
  readonly #store: SentMessageStore | undefined
  readonly #log: Logger
  #timer: NodeJS.Timeout | undefined
  #sock: WASocket | undefined
  /** Messages being sent that are to be kept: id → the chats (without device) they go to. */
  readonly #expected = new Map<string, string[]>()
  /** Ids whose row went into the send's own key commit. */
  readonly #joined = new Set<string>()
  /**
   * Messages whose row is in a key commit not yet made, when Baileys' memory has no copy: a retry receipt can come
   * back before that commit (the recipient answers the stanza at once), and is answered from here until the send
   * ends (`remember` or `forget`, both after the commit).
   */
  readonly #committing = new Map<string, SentMessage>()

  constructor(store: SentMessageStore | undefined, log: Logger) {
    this.#store = store
    this.#log = log
  }

  /**
   * Removes expired rows every minute (or `maxAgeMs`) until `stop()`. Not at once: a restart brings every session
   * up together, and the first prune of a session reads all its rows (reads never return expired ones anyway).
   */
  start(sock: WASocket, maxAgeMs: number): void {
    this.#sock = sock
    this.#joinKeyWrites(sock)
    if (!this.#store || this.#timer) return
    const prune = () => {
      this.#store?.prune().catch(err => this.#log.warn({ err }, 'pruning sent messages failed'))
    }
    this.#timer = setInterval(prune, Math.min(PRUNE_EVERY_MS, maxAgeMs))
    this.#timer.unref()
  }

  stop(): void {
    clearInterval(this.#timer)
    this.#timer = undefined
  }

  /**
   * Keeps an acknowledged message. Awaited before the client gets its 200, so a 200'd message survives a crash; a
   * failed write is logged and the send still succeeds (it was delivered: failing it would make the client send
   * it twice).
   */
  async remember(messageId: string, chats: string[], message: proto.IMessage | null | undefined): Promise<void> {
    this.#expected.delete(messageId)
    this.#committing.delete(messageId)
    // committed with the send's keys, before sendMessage resolved
    if (this.#joined.delete(messageId)) return
    if (!this.#store || !message) return
    try {
      const bytes = proto.Message.encode(message).finish()
      await this.#store.put(messageId, { message: bytes, chats: chatsOf(chats), sentAt: Date.now() })
    } catch (err) {
      this.#log.warn({ err, messageId }, 'keeping the sent message for retries failed')
    }
  }

  /** Before a send: its row may join the send's key commit (`remember` after the ack either way; `forget` at the end). */
  expect(messageId: string, chats: string[]): void {
    if (this.#store?.keyWrite) this.#expected.set(messageId, chatsOf(chats))
  }

  /** After a send, whatever became of it. */
  forget(messageId: string): void {
    this.#expected.delete(messageId)
    this.#joined.delete(messageId)
    this.#committing.delete(messageId)
  }

  /**
   * Wraps the socket's `addRecentMessage` so that an expected message's row joins the relay's key transaction.
   * A message so kept is not also held in Baileys' memory: that copy (an LRU entry, its own 5-minute timer, and the
   * message object kept alive, promoted by every young collection it survives) was paid on every send only to
   * answer retry receipts the store answers too, through `getMessage`, when it keeps at least as many messages
   * (`BAILEYS_RECENT_MESSAGES`). A store keeping fewer, or a row whose write fails, leaves the copy to Baileys.
   */
  #joinKeyWrites(sock: WASocket): void {
    const store = this.#store
    const manager = (sock as { messageRetryManager?: RecentMessages | null }).messageRetryManager
    // each only where Baileys is the version it was written for (patches/inventory.ts)
    if (!store?.keyWrite || !manager || !patchApplies('sent message in the key commit')) return
    const add = manager.addRecentMessage.bind(manager)
    const storeCovers =
      store.limits.maxMessages >= BAILEYS_RECENT_MESSAGES && patchApplies('no second copy for retries')
    manager.addRecentMessage = (to, id, message) => {
      const chats = this.#expected.get(id)
      // only inside the relay's transaction: a write there is recorded at once and committed with the keys
      if (!chats || !sock.authState.keys.isInTransaction?.()) return add(to, id, message)
      this.#expected.delete(id)
      const sent: SentMessage = { message: proto.Message.encode(message).finish(), chats, sentAt: Date.now() }
      const data = store.keyWrite!(id, sent)
      if (!data) return add(to, id, message) // the store keeps nothing
      this.#joined.add(id)
      if (storeCovers) this.#committing.set(id, sent)
      else add(to, id, message)
      Promise.resolve(sock.authState.keys.set(data as unknown as SignalDataSet)).catch((err: unknown) => {
        this.#joined.delete(id)
        this.#committing.delete(id)
        if (storeCovers) add(to, id, message)
        this.#log.warn({ err, messageId: id }, 'keeping the sent message for retries failed')
      })
    }
  }

  /** Baileys' `getMessage`: the stored message, when the key's chat is one it was sent to. */
  readonly getMessage = async (key: WAMessageKey): Promise<proto.IMessage | undefined> => {
    if (!this.#store || !key.id || !key.remoteJid) return undefined
    const sent =
      this.#committing.get(key.id) ??
      (await this.#store.get(key.id).catch((err: unknown) => {
        this.#log.warn({ err, messageId: key.id }, 'reading a sent message failed')
        return undefined
      }))
    if (!sent) {
      this.#log.debug({ messageId: key.id }, 'retry receipt for a message no longer kept')
      return undefined
    }
    const asking = await this.#sameChat(key.remoteJid)
    if (!asking.some(jid => sent.chats.includes(jid))) {
      this.#log.warn({ messageId: key.id }, 'retry receipt from a chat the message was not sent to: ignored')
      return undefined
    }
    this.#log.info({ messageId: key.id }, 'answering a retry receipt with the kept message')
    return proto.Message.decode(sent.message)
  }

  /** The chat's JID without device, and the contact's other address (LID ↔ phone JID) when the mapping knows it. */
  async #sameChat(remoteJid: string): Promise<string[]> {
    const jid = jidNormalizedUser(remoteJid)
    const mapping = this.#sock?.signalRepository.lidMapping
    let other: string | null | undefined
    try {
      if (isLidUser(jid)) other = await mapping?.getPNForLID(jid)
      else if (isPnUser(jid)) other = await mapping?.getLIDForPN(jid)
    } catch (err) {
      this.#log.debug({ err }, 'LID mapping lookup failed')
    }
    return other ? [jid, jidNormalizedUser(other)] : [jid]
  }
}

/** The chats a message went to, without device, each once. */
const chatsOf = (chats: string[]): string[] => [...new Set(chats.map(jidNormalizedUser))]
