/**
 * @module sandbox/channel-post-rules
 * Which client posts a channel (newsletter) accepts. Channels in the official apps offer text, image, video, audio,
 * document, sticker and poll posts, never a shared location or contact card; the sandbox refuses those with error
 * 400, as we expect the platform to (unverified against the live server), so the gateway must report the refusal.
 */
import { normalizeMessageContent, proto } from '@whiskeysockets/baileys'

/** Error code of the ack for a post the channel cannot carry. */
export const UNSUPPORTED_POST_CODE = '400'

const POSTABLE: Array<keyof proto.IMessage> = [
  'conversation', 'extendedTextMessage', 'imageMessage', 'videoMessage', 'audioMessage', 'documentMessage',
  'stickerMessage', 'pollCreationMessage', 'pollCreationMessageV2', 'pollCreationMessageV3',
]

/** The ack error code for this `<plaintext>` payload, or undefined when the channel takes it. */
export function channelPostRefusal(plaintext: Buffer | undefined): string | undefined {
  if (!plaintext) return UNSUPPORTED_POST_CODE
  let content: proto.IMessage | undefined
  try {
    content = normalizeMessageContent(proto.Message.decode(plaintext))
  } catch {
    return UNSUPPORTED_POST_CODE
  }
  if (!content) return UNSUPPORTED_POST_CODE
  return POSTABLE.some((field) => content[field] != null) ? undefined : UNSUPPORTED_POST_CODE
}
