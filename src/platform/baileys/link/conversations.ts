/**
 * @module platform/baileys/link/conversations
 * Tells the actor which numbers the account has 1:1 conversations with, as the socket sees them: every message
 * received or synced (the phone's own sends included; the gateway's own sends are recorded by the actor), and the
 * chats the platform lists at pairing and in history sync. A LID-addressed chat counts under its phone number when
 * Baileys knows it (the message's or chat's alternate JID, else the LID mapping); groups, channels and statuses do
 * not count. Nothing of a message but its chat's number is passed on.
 */
import type { WASocket } from '@whiskeysockets/baileys'
import type { Logger } from 'pino'
import type { LinkEvents } from '../../link.js'
import { isLidJid, phoneOfJid } from '../mapping/jids.js'
import { withTimeout } from '../query.js'

type Jid = string | null | undefined

export function watchConversations(
  sock: WASocket,
  events: Pick<LinkEvents, 'conversations'>,
  log: Logger,
  timeoutMs: number,
): void {
  /** The numbers of chats given as [jid, its alternate jid] pairs; LIDs without a known number are looked up. */
  const report = (chats: Array<[Jid, Jid]>): void => {
    const phones: string[] = []
    const lids: string[] = []
    for (const [jid, alt] of chats) {
      const phone = phoneOfJid(jid) || phoneOfJid(alt)
      if (phone) phones.push(phone)
      else if (jid && isLidJid(jid)) lids.push(jid)
    }
    if (phones.length) events.conversations(phones)
    if (lids.length) void lookUp(lids)
  }
  const lookUp = async (lids: string[]): Promise<void> => {
    try {
      const found = await withTimeout(sock.signalRepository.lidMapping.getPNsForLIDs(lids), timeoutMs)
      const phones = (found ?? []).map(entry => phoneOfJid(entry.pn)).filter(Boolean)
      if (phones.length) events.conversations(phones)
    } catch (err) {
      log.debug({ err }, 'no phone number known for a LID chat')
    }
  }
  sock.ev.on('messages.upsert', ({ messages }) => report(messages.map(m => [m.key.remoteJid, m.key.remoteJidAlt])))
  sock.ev.on('chats.upsert', chats => report(chats.map(c => [c.id, c.pnJid])))
  sock.ev.on('messaging-history.set', ({ chats }) => report(chats.map(c => [c.id, c.pnJid])))
}
