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
 */
import {
  isLidUser,
  isPnUser,
  jidNormalizedUser,
  proto,
  type WAMessageKey,
  type WASocket,
} from '@whiskeysockets/baileys'
import type { Logger } from 'pino'
import type { SentMessageStore } from '../../../storage/sent-messages.js'

/** How often expired rows are removed while a link is open (at most; sooner when the age limit is shorter). */
const PRUNE_EVERY_MS = 60_000

export class RetryMessages {
  readonly #store: SentMessageStore | undefined
  readonly #log: Logger
  #timer: NodeJS.Timeout | undefined
  #sock: WASocket | undefined

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
    if (!this.#store || !message) return
    try {
      const bytes = proto.Message.encode(message).finish()
      await this.#store.put(messageId, {
        message: bytes,
        chats: [...new Set(chats.map(jidNormalizedUser))],
        sentAt: Date.now(),
      })
    } catch (err) {
      this.#log.warn({ err, messageId }, 'keeping the sent message for retries failed')
    }
  }

  /** Baileys' `getMessage`: the stored message, when the key's chat is one it was sent to. */
  readonly getMessage = async (key: WAMessageKey): Promise<proto.IMessage | undefined> => {
    if (!this.#store || !key.id || !key.remoteJid) return undefined
    const sent = await this.#store.get(key.id).catch((err: unknown) => {
      this.#log.warn({ err, messageId: key.id }, 'reading a sent message failed')
      return undefined
    })
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
