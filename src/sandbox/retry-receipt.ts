/**
 * @module sandbox/retry-receipt
 * A recipient phone that cannot decrypt a message asks the sending device for it again with a retry receipt, as a
 * real phone does (Baileys' `sendRetryRequest` in Socket/messages-recv is the model):
 *
 *   <receipt from=RECIPIENT id=MSG_ID type="retry" t=NOW>
 *     <retry count="1" id=MSG_ID t=NOW v="1"/>
 *     <registration>4-byte big-endian registration id of the phone</registration>
 *   </receipt>
 *
 * `from` is the recipient's address in the form the sender used (phone JID or LID, device 0 written bare), no
 * `recipient` attribute (so the sender reads the receipt as about its own message). A first retry carries no
 * `<keys>` (a phone adds its key bundle only from the second retry on, or when it has no session at all); the
 * sender then fetches a fresh bundle and re-encrypts, which the sandbox's phone accepts.
 *
 * The fault (`failDecryptOf`, `failDecryptCount`, `retryAfterReconnect` in POST /faults) picks which messages fail;
 * `retryAfterReconnect` holds the receipt for the sending device's next login (what a sender that restarted, or a
 * phone that got the message while the sender was away, sees: an offline receipt).
 */
import type { BinaryNode } from '@whiskeysockets/baileys'
import { deliverToCompanion, type Account, type Companion } from './accounts.js'
import { node, unixNow } from './nodes.js'

/** The retry receipt `recipient`'s phone sends for message `id` it was sent at `to` (PN or LID form). */
export function retryReceipt(recipient: Account, id: string, to: string): BinaryNode {
  const registration = Buffer.alloc(4)
  registration.writeUInt32BE(recipient.simPhone.registrationId)
  const t = unixNow()
  return node('receipt', { from: to.endsWith('@lid') ? recipient.lidJid : recipient.pnJid, id, type: 'retry', t }, [
    node('retry', { count: '1', id, t, v: '1' }),
    node('registration', {}, registration),
  ])
}

/** Sends the receipt to the device that sent the message: now, or at its next login when `afterReconnect`. */
export function askAgain(sender: Companion, receipt: BinaryNode, afterReconnect: boolean): void {
  if (afterReconnect) sender.offline.push(receipt)
  else deliverToCompanion(sender, receipt)
}
