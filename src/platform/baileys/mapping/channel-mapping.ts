/**
 * @module platform/baileys/mapping/channel-mapping
 * Channel (newsletter) payloads → spec Channel / ChannelMessage (BAILEYS-MAPPING §6). Pure.
 *
 * Decision: `thumbnail` in image/video objects is a URL like every other thumbnail of the spec: the platform's
 * thumbnail path (`thumbnailDirectPath`) when the message has one, else the message's inline `jpegThumbnail` as a
 * `data:image/jpeg;base64,` URL, else ''. A creation time or post link the platform does not give is '' rather
 * than a made-up value (1970, or a link built from the numeric channel id that opens nothing).
 */
import {
  getBinaryNodeChild,
  getBinaryNodeChildren,
  getContentType,
  normalizeMessageContent,
  proto,
  type BinaryNode,
} from '@whiskeysockets/baileys'
import type { Channel, ChannelMessage, ChannelPage } from '../../../protocol/spec-types.js'

export const CHANNEL_PAGE_SIZE = 100
const MEDIA_HOST = 'https://mmg.whatsapp.net'
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

function channelPicture(n: RawNewsletter): string {
  const t = n.thread_metadata
  if (t?.picture?.url) return t.picture.url
  const path = t?.picture?.direct_path || t?.preview?.direct_path
  return path ? `${MEDIA_HOST}${path}` : ''
}

/** The account owns or administers the channel (it may post there): the viewer roles OWNER and ADMIN. */
export const isManagerRole = (role: string): boolean => ['OWNER', 'ADMIN'].includes(role.toUpperCase())

/** Unix seconds → ISO time; '' when the platform gave none (0, absent or not a number). */
const isoOrEmpty = (seconds: number): string =>
  Number.isFinite(seconds) && seconds > 0 ? new Date(seconds * 1000).toISOString() : ''

export function mapChannel(n: RawNewsletter): Channel {
  return {
    id: n.id,
    name: n.thread_metadata?.name?.text ?? '',
    picture: channelPicture(n),
    isOwner: isManagerRole(n.viewer_metadata?.role ?? ''),
    created: isoOrEmpty(Number(n.thread_metadata?.creation_time ?? 0)),
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
      plaintext:
        plain instanceof Uint8Array ? plain : typeof plain === 'string' ? Buffer.from(plain, 'binary') : undefined,
    }
  })
}

const mediaUrl = (m: { url?: string | null; directPath?: string | null }): string =>
  m.url || (m.directPath ? `${MEDIA_HOST}${m.directPath}` : '')

const thumbnailOf = (m: { thumbnailDirectPath?: string | null; jpegThumbnail?: Uint8Array | null }): string => {
  if (m.thumbnailDirectPath) return `${MEDIA_HOST}${m.thumbnailDirectPath}`
  const bytes = m.jpegThumbnail
  return bytes?.length ? `data:image/jpeg;base64,${Buffer.from(bytes).toString('base64')}` : ''
}

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
        type: 'image',
        text: m.caption ?? '',
        image: { url: mediaUrl(m), thumbnail: thumbnailOf(m), mimetype: m.mimetype ?? '' },
      }
    }
    case 'videoMessage': {
      const m = message.videoMessage!
      return {
        type: 'video',
        text: m.caption ?? '',
        video: { url: mediaUrl(m), thumbnail: thumbnailOf(m), duration: m.seconds ?? 0, mimetype: m.mimetype ?? '' },
      }
    }
    case 'stickerMessage': {
      const m = message.stickerMessage!
      return { type: 'sticker', text: '', sticker: { url: mediaUrl(m), mimetype: m.mimetype ?? '' } }
    }
    case 'pollCreationMessage':
    case 'pollCreationMessageV2':
    case 'pollCreationMessageV3':
    case 'pollCreationMessageV5': {
      const m = message[kind]!
      return {
        type: 'poll',
        text: '',
        polling: { name: m.name ?? '', options: (m.options ?? []).map(o => o.optionName ?? '') },
      }
    }
    default: {
      // V4 lives in a FutureProofMessage wrapper in this proto version
      const v4 = (message as { pollCreationMessageV4?: { message?: proto.IMessage } }).pollCreationMessageV4?.message
      const poll = v4?.pollCreationMessage
      if (kind === 'pollCreationMessageV4' && poll) {
        return {
          type: 'poll',
          text: '',
          polling: { name: poll.name ?? '', options: (poll.options ?? []).map(o => o.optionName ?? '') },
        }
      }
      return unsupported
    }
  }
}

/** The public link of one channel post; '' when the platform gave no invite code (the link needs it). */
function channelPostUrl(invite: string, serverId: number): string {
  return invite ? `https://whatsapp.com/channel/${invite}/${serverId}` : ''
}

/**
 * Rows → page: newest first, cut before the first post that would take the page's JSON past `maxBytes` (the first
 * post is always in, however large). `before` = the smallest serverId on the page when the platform's page was full
 * or the page was cut (more posts follow: the client sends it back to continue), else 0.
 */
export function mapChannelPage(
  rows: ChannelRow[],
  invite: string,
  maxBytes = Number.POSITIVE_INFINITY,
  pageSize = CHANNEL_PAGE_SIZE,
): ChannelPage {
  const all = rows
    .map(
      (row): ChannelMessage => ({
        id: row.id,
        serverId: row.serverId,
        url: channelPostUrl(invite, row.serverId),
        ...mapChannelBody(row.plaintext),
        created: isoOrEmpty(row.t),
      }),
    )
    .sort((a, b) => b.serverId - a.serverId)
  const docs = withinBytes(all, maxBytes)
  const more = rows.length >= pageSize || docs.length < all.length
  const before = more && docs.length ? Math.min(...docs.map(d => d.serverId)) : 0
  return { docs, before }
}

/** The longest head of `docs` whose JSON (with the commas between them) stays within `maxBytes`; at least one. */
function withinBytes(docs: ChannelMessage[], maxBytes: number): ChannelMessage[] {
  if (maxBytes === Number.POSITIVE_INFINITY) return docs
  let bytes = 0
  for (let i = 0; i < docs.length; i++) {
    bytes += Buffer.byteLength(JSON.stringify(docs[i])) + (i > 0 ? 1 : 0)
    if (bytes > maxBytes && i > 0) return docs.slice(0, i)
  }
  return docs
}
