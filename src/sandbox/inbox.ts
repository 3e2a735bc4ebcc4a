/**
 * @module sandbox/inbox
 * Turns a decrypted proto.Message into the inbox record tests read back, downloading and verifying media.
 */
import { createHash } from 'node:crypto'
import { normalizeMessageContent, type proto } from '@whiskeysockets/baileys'
import type { MediaType } from '@whiskeysockets/baileys'
import { fetchAndDecryptMedia } from './media-fetch.js'
import { imageSize, meanColor } from './media-facts.js'
import type { InboxMedia, InboxMessage } from './types.js'

export interface InboxMeta {
  id: string
  chat: string
  from: string
  status: boolean
  /** The JID the sender addressed the stanza to. */
  to?: string
}

/** proto numbers may be Long objects; Number() handles both. */
const toNumber = (v: unknown): number | undefined => (v == null ? undefined : Number(v))

/** `#RRGGBB` from the ARGB integer Baileys puts in backgroundArgb. */
const argbToHex = (argb: number): string => `#${((argb >>> 0) & 0xffffff).toString(16).padStart(6, '0').toUpperCase()}`

/** Hash and pixel size of a thumbnail (its shape shows which source it was made from); size left out if unreadable. */
async function describeThumbnail(
  jpeg: Buffer,
): Promise<Pick<InboxMedia, 'thumbnailSha256' | 'thumbnailWidth' | 'thumbnailHeight'>> {
  const size = await imageSize(jpeg)
  return {
    thumbnailSha256: createHash('sha256').update(jpeg).digest('hex'),
    ...(size ? { thumbnailWidth: size.width, thumbnailHeight: size.height } : {}),
  }
}

/** Pixel size of an image, average colour of any thumbnail (what the eye notices: compression, which frame). */
async function statusMediaFacts(
  type: InboxMessage['type'],
  plain: Buffer,
  thumb: Uint8Array | null | undefined,
): Promise<Partial<InboxMedia>> {
  const out: Partial<InboxMedia> = {}
  const size = type === 'image' ? await imageSize(plain) : undefined
  if (size) Object.assign(out, size)
  const color = thumb?.length ? await meanColor(Buffer.from(thumb)) : undefined
  if (color) out.thumbnailMeanColor = color
  return out
}

type MediaMessage = proto.Message.IImageMessage &
  proto.Message.IVideoMessage &
  proto.Message.IAudioMessage &
  proto.Message.IDocumentMessage

/** Returns undefined for messages a phone would not show (protocol messages, bare key distribution). */
export async function buildInboxMessage(
  message: proto.IMessage,
  meta: InboxMeta,
  mediaHost: string,
  ca: string,
): Promise<InboxMessage | undefined> {
  const content = normalizeMessageContent(message)
  if (!content) return undefined
  const base = { ...meta, receivedAt: new Date().toISOString() }
  const text = content.conversation ?? content.extendedTextMessage?.text
  if (typeof text === 'string') {
    const argb = toNumber(content.extendedTextMessage?.backgroundArgb)
    return {
      ...base,
      type: 'text',
      text,
      ...(meta.status && argb !== undefined ? { backgroundColor: argbToHex(argb) } : {}),
    }
  }
  const mediaKinds: [keyof proto.IMessage, InboxMessage['type'], MediaType][] = [
    ['imageMessage', 'image', 'image'],
    ['videoMessage', 'video', 'video'],
    ['audioMessage', 'audio', 'audio'],
    ['documentMessage', 'document', 'document'],
    ['stickerMessage', 'sticker', 'sticker'],
  ]
  for (const [field, type, mediaType] of mediaKinds) {
    const media = content[field] as MediaMessage | null | undefined
    if (!media) continue
    const record: InboxMessage = { ...base, type }
    if (media.caption) record.caption = media.caption
    try {
      const plain = await fetchAndDecryptMedia(media, mediaType, mediaHost, ca)
      const info: InboxMedia = {
        mimetype: media.mimetype ?? 'application/octet-stream',
        size: plain.length,
        sha256: createHash('sha256').update(plain).digest('hex'),
        hasThumbnail: !!media.jpegThumbnail?.length,
      }
      if (media.jpegThumbnail?.length) Object.assign(info, await describeThumbnail(Buffer.from(media.jpegThumbnail)))
      Object.assign(info, await statusMediaFacts(type, plain, media.jpegThumbnail))
      if (media.fileName) info.fileName = media.fileName
      if (media.seconds) info.seconds = media.seconds
      if (type === 'audio') info.ptt = !!media.ptt
      record.media = info
    } catch (err) {
      record.error = `media: ${(err as Error).message}`
    }
    return record
  }
  const location = content.locationMessage ?? content.liveLocationMessage
  if (location) {
    const loc: NonNullable<InboxMessage['location']> = {
      latitude: location.degreesLatitude ?? 0,
      longitude: location.degreesLongitude ?? 0,
    }
    const named = content.locationMessage
    if (named?.name) loc.name = named.name
    if (named?.address) loc.address = named.address
    return { ...base, type: 'location', location: loc }
  }
  const contact = content.contactMessage ?? content.contactsArrayMessage?.contacts?.[0]
  if (contact)
    return { ...base, type: 'contact', contact: { displayName: contact.displayName ?? '', vcard: contact.vcard ?? '' } }
  return undefined
}
