/**
 * @module platform/baileys/link/tc-token
 * Records, after a 1:1 send, that this device has issued its privacy token (tctoken) to the contact, so that
 * Baileys does not issue it again with the next message.
 *
 * Why: after every 1:1 send Baileys issues our token to the contact (`<iq xmlns="privacy" type="set"><tokens>`)
 * unless the contact's `tctoken` entry has a `senderTimestamp` in the current 7-day bucket. It writes that
 * timestamp from a fire-and-forget chain started inside `relayMessage`, which runs in a key-store transaction
 * (`addTransactionCapability`, kept in an AsyncLocalStorage). The chain inherits that context, and by the time the
 * iq is answered the transaction has committed: the write lands in a finished transaction and is lost. So every
 * send that found no issuance in flight issued again: one more iq and answer per message on the wire, plus the key
 * reads and writes around it (measured: ~0.9 per message for a gateway that waits for the server ack, and the
 * platform answering them). Written here, after the send, outside any transaction, the entry reaches the store.
 *
 * The timestamp is the time of the send, not of the iq's answer: an issuance that failed is not retried before
 * the next bucket (Baileys would retry it with the next send). The same gates as Baileys: a regular user (PN or
 * LID, not a bot or the PSA) and not a protocol message (a delete or an edit).
 */
import {
  isJidBot,
  isJidMetaAI,
  isLidUser,
  isPnUser,
  normalizeMessageContent,
  PSA_WID,
  type proto,
  type WASocket,
} from '@whiskeysockets/baileys'
import {
  buildMergedTcTokenIndexWrite,
  resolveTcTokenJid,
  shouldSendNewTcToken,
} from '@whiskeysockets/baileys/lib/Utils/tc-token-utils.js'

/** Marks our token as issued to `jid` (the destination of a 1:1 send just acknowledged); a no-op when Baileys' own
 * record already says so, or for anything Baileys does not issue tokens to. */
export async function markTcTokenIssued(
  sock: Pick<WASocket, 'authState' | 'signalRepository'>,
  jid: string,
  message: proto.IMessage | null | undefined,
  now = Math.floor(Date.now() / 1000),
): Promise<boolean> {
  if (!(isPnUser(jid) || isLidUser(jid)) || jid === PSA_WID || isJidBot(jid) || isJidMetaAI(jid)) return false
  if (normalizeMessageContent(message)?.protocolMessage) return false
  const { lidMapping } = sock.signalRepository
  const storageJid = await resolveTcTokenJid(jid, lidMapping.getLIDForPN.bind(lidMapping))
  const keys = sock.authState.keys
  const entry = (await keys.get('tctoken', [storageJid]))[storageJid]
  if (!shouldSendNewTcToken(entry?.senderTimestamp)) return false
  const index = await buildMergedTcTokenIndexWrite(keys, [storageJid])
  await keys.set({ tctoken: { [storageJid]: { token: Buffer.alloc(0), ...entry, senderTimestamp: now }, ...index } })
  return true
}
