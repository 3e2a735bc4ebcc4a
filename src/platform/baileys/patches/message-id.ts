/**
 * @module platform/baileys/patches/message-id
 * Baileys' `sendMessage` made a message id for every send, even when the caller gave one.
 *
 * Why: `Socket/messages-send.js` builds the message with `messageId: generateMessageIDV2(sock.user?.id),
 * ...options`: the caller's id wins, but the default was made first (a jid decode, 16 random bytes and a SHA-256),
 * ~1.3 % of a shard's CPU per send (measured). The adapter always passes its own id (link/messages.ts: the id it
 * answers with and keeps for retry receipts), so that work was thrown away on every send.
 *
 * How (a rewrite of `messages-send.js` as it loads, `source-hook.ts`): the default is made only when the options
 * carry no id; the result is the same message, with the caller's id when given and a fresh one otherwise.
 */
import { baileysFileUrl, type SourcePatch } from './source-hook.js'

const EAGER_ID = `messageId: generateMessageIDV2(sock.user?.id),
                    ...options`

const ID_WHEN_MISSING = `messageId: options?.messageId || generateMessageIDV2(sock.user?.id),
                    ...options`

/** `messages-send.js` with the default id made only when needed, or undefined when the line is not found once. */
export function messageIdSource(source: string): string | undefined {
  const parts = source.split(EAGER_ID)
  return parts.length === 2 ? parts.join(ID_WHEN_MISSING) : undefined
}

export const messageIdPatch: SourcePatch = {
  name: 'message id',
  url: baileysFileUrl('lib/Socket/messages-send.js'),
  rewrite: messageIdSource,
}
