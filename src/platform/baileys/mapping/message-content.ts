/**
 * @module platform/baileys/mapping/message-content
 * Spec MessageContent / StatusContent → Baileys AnyMessageContent (BAILEYS-MAPPING §2.3, §3.2–3.3), from the send's
 * media as media/send-media.ts made it ready (temp files, the preview, a status image recompressed): a pure
 * function, no I/O. Baileys is handed the file's path (the media pool uploads it, media/pool-upload.ts) and the
 * preview made by the gateway, so it never shells out to ffmpeg.
 */
import type { AnyMessageContent } from '@whiskeysockets/baileys'
import type { SendMedia } from '../../../media/send-media.js'
import type { MessageContent, StatusContent } from '../../../protocol/spec-types.js'
import { buildVCard } from './vcard.js'

/** Dark WhatsApp green; a string because Baileys' assertColor drops numbers (BAILEYS-MAPPING §3.2). */
export const STATUS_BACKGROUND = '#075E54'

/** The path of the send's main media file; the media was made ready for this content, so it is there. */
function filePath(media: SendMedia): string {
  if (!media.file) throw new Error('media content without its file')
  return media.file.file.path
}

const captioned = (text: string | undefined) => (text ? { caption: text } : {})
const thumbnailOf = (media: SendMedia) => (media.jpegThumbnail ? { jpegThumbnail: media.jpegThumbnail } : {})

/** The content of a POST /message. */
export function messageContent(message: MessageContent, media: SendMedia): AnyMessageContent {
  switch (message.type) {
    case 'text':
      return { text: message.text, linkPreview: null }
    case 'location': {
      const l = message.location
      return {
        location: {
          degreesLatitude: l.latitude,
          degreesLongitude: l.longitude,
          ...(l.name ? { name: l.name } : {}),
          ...(l.address ? { address: l.address } : {}),
        },
      }
    }
    case 'contact': {
      const c = message.contact
      return {
        contacts: { displayName: c.name, contacts: [{ displayName: c.name, vcard: buildVCard(c.name, c.phone) }] },
      }
    }
    case 'image':
      return {
        image: { url: filePath(media) },
        mimetype: message.image.mimetype,
        ...thumbnailOf(media),
        ...captioned(message.text),
      }
    case 'video':
      // `seconds` is a VideoMessage field the TS content type lacks; Baileys copies it into the proto
      return {
        video: { url: filePath(media) },
        mimetype: message.video.mimetype,
        ...thumbnailOf(media),
        seconds: message.video.duration,
        ...captioned(message.text),
      } as AnyMessageContent
    case 'audio':
      return {
        audio: { url: filePath(media) },
        mimetype: message.audio.mimetype,
        ptt: false,
        seconds: message.audio.duration,
      }
    case 'document':
      // spec `size` is deliberately not passed as fileLength: Baileys would let it override the real length
      return {
        document: { url: filePath(media) },
        mimetype: message.document.mimetype,
        fileName: message.document.name,
        ...captioned(message.text),
      }
  }
}

/** The content of a POST /status: an image is its recompressed JPEG; text and video as in a message. */
export function statusContent(status: StatusContent, media: SendMedia): AnyMessageContent {
  if (status.type !== 'image') return messageContent(status, media)
  if (!media.compressed) throw new Error('status image without its recompressed copy')
  return { image: media.compressed, mimetype: 'image/jpeg', ...thumbnailOf(media), ...captioned(status.text) }
}
