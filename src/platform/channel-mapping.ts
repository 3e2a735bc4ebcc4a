/**
 * @module platform/channel-mapping
 * Channel (newsletter) payloads → spec Channel / ChannelMessage (BAILEYS-MAPPING §6). Pure.
 *
 * Decision: `thumbnail` in image/video objects is the base64 of the message's `jpegThumbnail` ('' when absent).
 * It needs no further request and no auth, unlike a `thumbnailDirectPath` URL.
 */
import {
  getBinaryNodeChild, getBinaryNodeChildren, getContentType, normalizeMessageContent, proto, type BinaryNode,
} from '@whiskeysockets/baileys'
import type { Channel, ChannelMessage, ChannelPage } from '../protocol/spec-types.js'

export const CHANNEL_PAGE_SIZE = 100
export const MEDIA_HOST = 'https://mmg.whatsapp.net'
export const UNSUPPORTED_TEXT = 'UNSUPPORTED TYPE'

/** The raw newsletter object of mex queries (`xwa2_newsletter` / `xwa2_newsletter_subscribed[]`). */
export interface RawNewsletter {
  id: string
  thread_metadata?: {
    creation_time?: string | number
    name?: { text?: string }
    invite?: string
    picture?: { url?: string; direct_path?: string } | null
    preview?: { url?: string; direct_path?: string } | null
  }
  viewer_metadata?: { role?: string } | null
}

export function channelPicture(n: RawNewsletter): string {
  const t = n.thread_metadata
  if (t?.picture?.url) return t.picture.url
  const path = t?.picture?.direct_path || t?.preview?.direct_path
  return path ? `${MEDIA_HOST}${path}` : ''
}

/** The account owns or administers the channel (it may post there): the viewer roles OWNER and ADMIN. */
export const isManagerRole = (role: string): boolean => ['OWNER', 'ADMIN'].includes(role.toUpperCase())

export function mapChannel(n: RawNewsletter): Channel {
  const seconds = Number(n.thread_metadata?.creation_time ?? 0)
  return {
    id: n.id,
    name: n.thread_metadata?.name?.text ?? '',
    picture: channelPicture(n),
    isOwner: isManagerRole(n.viewer_metadata?.role ?? ''),
    created: new Date((Number.isFinite(seconds) ? seconds : 0) * 1000).toISOString(),
  }
}

/** One `<message>` row of the `<messages>` IQ, reduced to what the mapping needs. */
export interface ChannelRow {
  id: string
  serverId: number
  /** unix seconds */
  t: number
  /** `<plaintext>` bytes, undefined when the row had none. */
  plaintext: Uint8Array | undefined
}

/** The rows of a `<iq><messages><message id server_id t><plaintext/></message>…</messages></iq>` answer. */
export function channelRowsOf(res: BinaryNode): ChannelRow[] {
  const list = getBinaryNodeChild(res, 'messages')
  return (list ? getBinaryNodeChildren(list, 'message') : []).map(m => {
    const plain = getBinaryNodeChild(m, 'plaintext')?.content
    return {
      id: m.attrs.id ?? '',
      serverId: Number(m.attrs.server_id ?? 0),
      t: Number(m.attrs.t ?? 0),
      plaintext: plain instanceof Uint8Array ? plain : typeof plain === 'string' ? Buffer.from(plain, 'binary') : undefined,
    }
  })
}

const mediaUrl = (m: { url?: string | null; directPath?: string | null }): string =>
  m.url || (m.directPath ? `${MEDIA_HOST}${m.directPath}` : '')

const thumbnailOf = (bytes: Uint8Array | null | undefined): string =>
  bytes && bytes.length ? Buffer.from(bytes).toString('base64') : ''

type Body = Pick<ChannelMessage, 'type' | 'text' | 'image' | 'video' | 'sticker' | 'polling'>

/** Decodes the plaintext proto and maps its content type; anything unknown is `text` / `UNSUPPORTED TYPE`. */
export function mapChannelBody(plaintext: Uint8Array | undefined): Body {
  const unsupported: Body = { type: 'text', text: UNSUPPORTED_TEXT }
  if (!plaintext || plaintext.length === 0) return unsupported
  let message: proto.IMessage | undefined
  try {
    message = normalizeMessageContent(proto.Message.decode(plaintext))
  } catch {
    return unsupported
  }
  if (!message) return unsupported
  const kind = getContentType(message)
  switch (kind) {
    case 'conversation':
      return { type: 'text', text: message.conversation ?? '' }
    case 'extendedTextMessage':
      return { type: 'text', text: message.extendedTextMessage?.text ?? '' }
    case 'imageMessage': {
      const m = message.imageMessage!
      return {
        type: 'image', text: m.caption ?? '',
        image: { url: mediaUrl(m), thumbnail: thumbnailOf(m.jpegThumbnail), mimetype: m.mimetype ?? '' },
      }
    }
    case 'videoMessage': {
      const m = message.videoMessage!
      return {
        type: 'video', text: m.caption ?? '',
        video: { url: mediaUrl(m), thumbnail: thumbnailOf(m.jpegThumbnail), duration: m.seconds ?? 0, mimetype: m.mimetype ?? '' },
      }
    }
    case 'stickerMessage': {
      const m = message.stickerMessage!
      return { type: 'sticker', text: '', sticker: { url: mediaUrl(m), mimetype: m.mimetype ?? '' } }
    }
    case 'pollCreationMessage': case 'pollCreationMessageV2': case 'pollCreationMessageV3':
    case 'pollCreationMessageV5': {
      const m = message[kind]!
      return { type: 'poll', text: '', polling: { name: m.name ?? '', options: (m.options ?? []).map(o => o.optionName ?? '') } }
    }
    default: {
      // V4 lives in a FutureProofMessage wrapper in this proto version
      const v4 = (message as { pollCreationMessageV4?: { message?: proto.IMessage } }).pollCreationMessageV4?.message
      const poll = v4?.pollCreationMessage
      if (kind === 'pollCreationMessageV4' && poll) {
        return { type: 'poll', text: '', polling: { name: poll.name ?? '', options: (poll.options ?? []).map(o => o.optionName ?? '') } }
      }
      return unsupported
    }
  }
}

/** The public link of one channel post. `invite` falls back to the channel id's user part. */
export function channelPostUrl(invite: string, serverId: number): string {
  return `https://whatsapp.com/channel/${invite}/${serverId}`
}

export function inviteOrUser(invite: string | undefined, channelId: string): string {
  return invite || channelId.split('@')[0] || channelId
}

/** Rows → page: newest first; `before` = smallest serverId when the page is full, else 0. */
export function mapChannelPage(rows: ChannelRow[], invite: string, pageSize = CHANNEL_PAGE_SIZE): ChannelPage {
  const docs = rows
    .map((row): ChannelMessage => ({
      id: row.id,
      serverId: row.serverId,
      url: channelPostUrl(invite, row.serverId),
      ...mapChannelBody(row.plaintext),
      created: new Date(row.t * 1000).toISOString(),
    }))
    .sort((a, b) => b.serverId - a.serverId)
  const before = rows.length >= pageSize && docs.length ? Math.min(...docs.map(d => d.serverId)) : 0
  return { docs, before }
}
