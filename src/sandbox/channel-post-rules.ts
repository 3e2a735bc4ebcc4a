/**
 * @module sandbox/channel-post-rules
 * Which client posts a channel (newsletter) accepts under the `strictChannelPosts` fault switch. Channels in the
 * official apps offer text, image, video, audio, document, sticker and poll posts, never a shared location or contact
 * card; whether the live server refuses one a client sends anyway is unverified, so the sandbox accepts every post by
 * default and refuses the others with error 400 only when the switch is on (tests of the gateway's answer to it).
 */
import { normalizeMessageContent, proto } from '@whiskeysockets/baileys'

/** Error code of the ack for a post the channel cannot carry. */
const UNSUPPORTED_POST_CODE = '400'

const POSTABLE: Array<keyof proto.IMessage> = [
  'conversation',
  'extendedTextMessage',
  'imageMessage',
  'videoMessage',
  'audioMessage',
  'documentMessage',
  'stickerMessage',
  'pollCreationMessage',
  'pollCreationMessageV2',
  'pollCreationMessageV3',
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
  return POSTABLE.some(field => content[field] != null) ? undefined : UNSUPPORTED_POST_CODE
}
