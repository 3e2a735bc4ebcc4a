/**
 * @module sandbox/phone-send
 * The simulated phone as a sender: it builds a Signal session to a companion from the prekeys the companion
 * uploaded, encrypts a proto.Message, and delivers it on the companion's live link. Used for the initial history
 * and app-state key share (own phone → own companion) and for messages simulated peers send to the gateway.
 */
import { randomBytes } from 'node:crypto'
import { encodeWAMessage, type proto } from '@whiskeysockets/baileys'
import { ProtocolAddress, SessionBuilder, SessionCipher } from 'libsignal'
import { deliverToCompanion, type Account, type Companion } from './accounts.js'
import { node, unixNow } from './nodes.js'
import { signalPub } from './signal-store.js'

const newMessageId = (): string => `3EB0${randomBytes(8).toString('hex').toUpperCase()}`

/** Encrypts `message` from `sender`'s phone to one companion device of `recipient`. */
async function encryptFromPhone(
  sender: Account,
  recipient: Account,
  companion: Companion,
  message: proto.IMessage,
): Promise<{ type: 'pkmsg' | 'msg'; ciphertext: Buffer }> {
  const store = sender.simPhone.store
  const address = new ProtocolAddress(recipient.lid, companion.device)
  const existing = await store.loadSession(address.toString())
  if (!existing?.haveOpenSession()) {
    const bundle = recipient.bundleFor(companion.device)
    if (!bundle) throw new Error(`no prekeys for ${recipient.phone}:${companion.device}`)
    await new SessionBuilder(store, address).initOutgoing({
      registrationId: bundle.registrationId,
      identityKey: signalPub(bundle.identity),
      signedPreKey: {
        keyId: bundle.signedPreKey.id,
        publicKey: signalPub(bundle.signedPreKey.public),
        signature: bundle.signedPreKey.signature,
      },
      preKey: bundle.preKey
        ? { keyId: bundle.preKey.id, publicKey: signalPub(bundle.preKey.public) }
        : (undefined as never),
    })
  }
  const { type, body } = await new SessionCipher(store, address).encrypt(encodeWAMessage(message))
  return { type: type === 3 ? 'pkmsg' : 'msg', ciphertext: Buffer.from(body as unknown as Uint8Array) }
}

export interface PhoneSendOptions {
  /** Message id; generated when absent. */
  id?: string
  /** Sender display name put in `notify` (Baileys' pushName). */
  notify?: string
  type?: string
}

/**
 * Sends from `sender`'s phone to every companion of `recipient` (own companions when they are the same account);
 * offline companions get it on their next login. Returns how many devices it was addressed to.
 */
export async function sendFromPhone(
  sender: Account,
  recipient: Account,
  message: proto.IMessage,
  options: PhoneSendOptions = {},
): Promise<number> {
  const id = options.id ?? newMessageId()
  let delivered = 0
  for (const companion of recipient.companions.values()) {
    const { type, ciphertext } = await encryptFromPhone(sender, recipient, companion, message)
    const attrs: Record<string, string> = { from: sender.pnJid, id, t: unixNow(), type: options.type ?? 'text' }
    if (sender !== recipient) {
      attrs.sender_lid = sender.lidJid
      if (options.notify) attrs.notify = options.notify
    }
    deliverToCompanion(companion, node('message', attrs, [node('enc', { v: '2', type }, ciphertext)]))
    delivered++
  }
  return delivered
}
