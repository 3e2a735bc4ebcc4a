/**
 * @module sandbox/channels
 * Channel (newsletter) posts: the world's seeded messages plus what clients post, each with a server id.
 */
import { createHash } from 'node:crypto'
import { normalizeMessageContent, proto } from '@whiskeysockets/baileys'
import type { MediaStore } from './media-store.js'
import type { World, WorldChannelMessage } from './types.js'

export interface ChannelPost {
  /** Message id: the client's for posts, a stable made-up one for seeded messages. */
  id: string
  serverId: number
  type: string
  text?: string
  caption?: string
  media?: {
    mimetype: string
    size?: number
    sha256?: string
    seconds?: number
    fileName?: string
    /** Seeded media: where the platform would serve it (the message's `url` is the media host + this path). */
    directPath?: string
    /** Seeded images and videos: base64 of the `jpegThumbnail` the message carries. */
    thumbnail?: string
  }
  /** Location posts: what the client shared. */
  location?: { latitude: number; longitude: number; name?: string; address?: string }
  /** Contact posts: the card as posted. */
  contact?: { displayName: string; vcard: string }
  /** Why the post's media could not be resolved (unknown media_id, hash mismatch). */
  error?: string
  /** Client posts: the `<plaintext>` bytes as posted, served back verbatim in history (URLs, thumbnail and all). */
  plaintext?: Buffer
  /** Seeded from the world (`name`/`options` for polls). */
  seed?: WorldChannelMessage
  t: number
}

function describe(message: proto.IMessage): Omit<ChannelPost, 'id' | 'serverId' | 't'> {
  const c = normalizeMessageContent(message) ?? {}
  const text = c.conversation ?? c.extendedTextMessage?.text
  if (typeof text === 'string') return { type: 'text', text }
  const kinds = [
    ['imageMessage', 'image'],
    ['videoMessage', 'video'],
    ['audioMessage', 'audio'],
    ['documentMessage', 'document'],
    ['stickerMessage', 'sticker'],
  ] as const
  for (const [field, type] of kinds) {
    const m = c[field] as
      | {
          caption?: string | null
          mimetype?: string | null
          fileLength?: unknown
          seconds?: number | null
          fileName?: string | null
        }
      | null
      | undefined
    if (!m) continue
    const post: Omit<ChannelPost, 'id' | 'serverId' | 't'> = {
      type,
      media: {
        mimetype: m.mimetype ?? 'application/octet-stream',
        size: m.fileLength ? Number(m.fileLength) : undefined,
        seconds: m.seconds ?? undefined,
      },
    }
    if (m.fileName && post.media) post.media.fileName = m.fileName
    if (m.caption) post.caption = m.caption
    return post
  }
  if (c.pollCreationMessage || c.pollCreationMessageV3) return { type: 'poll' }
  if (c.locationMessage) {
    const { degreesLatitude, degreesLongitude, name, address } = c.locationMessage
    return {
      type: 'location',
      location: {
        latitude: degreesLatitude ?? 0,
        longitude: degreesLongitude ?? 0,
        ...(name ? { name } : {}),
        ...(address ? { address } : {}),
      },
    }
  }
  if (c.contactMessage)
    return {
      type: 'contact',
      contact: { displayName: c.contactMessage.displayName ?? '', vcard: c.contactMessage.vcard ?? '' },
    }
  return { type: 'other' }
}

export class ChannelStore {
  readonly #posted = new Map<string, ChannelPost[]>()

  constructor(
    private readonly world: () => World,
    private readonly media: MediaStore,
  ) {}

  /** Owners and admins may post; everyone else is refused, as the platform does. */
  canPost(channelId: string, phone: string): boolean {
    const channel = this.world().channels.find(c => c.id === channelId)
    return !!channel && (channel.owner === phone || (channel.admins ?? []).includes(phone))
  }

  /** Seeded world messages first (server ids 1..n), then client posts. */
  list(channelId: string): ChannelPost[] {
    const key = channelId.split('@')[0] ?? channelId
    const seeded = (this.world().channels.find(c => c.id === channelId)?.messages ?? []).map(
      (m, i): ChannelPost => ({
        id: `SBXSEED${String(i + 1).padStart(6, '0')}`,
        serverId: i + 1,
        type: m.type,
        seed: m,
        t: 1735689600 + i * 60,
        ...(m.text !== undefined ? { text: m.text } : {}),
        ...(m.caption !== undefined ? { caption: m.caption } : {}),
        ...(MEDIA_TYPES.includes(m.type) ? { media: seededMedia(m, key, i + 1) } : {}),
      }),
    )
    return [
      ...seeded,
      ...(this.#posted.get(channelId) ?? []).map((p, i) => ({ ...p, serverId: seeded.length + i + 1 })),
    ]
  }

  /**
   * A client posted to a channel (`<plaintext>` proto bytes, and for media the `media_id` handle of an upload to
   * /newsletter/…). Returns the server id, or undefined for an unknown channel.
   */
  post(channelId: string, id: string, plaintext: Buffer | undefined, mediaId?: string): number | undefined {
    if (!this.world().channels.some(c => c.id === channelId)) return undefined
    const list = this.#posted.get(channelId) ?? []
    const message = plaintext ? proto.Message.decode(plaintext) : undefined
    const post: ChannelPost = {
      id,
      serverId: 0,
      t: Math.floor(Date.now() / 1000),
      ...(message ? describe(message) : { type: 'other' }),
      ...(plaintext ? { plaintext } : {}),
    }
    if (post.media) {
      const blob = mediaId ? this.media.byHandle(mediaId) : undefined
      if (!blob) post.error = mediaId ? 'unknown media_id' : 'media without media_id'
      else {
        const sha = createHash('sha256').update(blob.body).digest()
        post.media.size = blob.body.length
        post.media.sha256 = sha.toString('hex')
        const declared = normalizeMessageContent(message)
        const fileSha = (
          declared?.imageMessage ??
          declared?.videoMessage ??
          declared?.audioMessage ??
          declared?.documentMessage ??
          declared?.stickerMessage
        )?.fileSha256
        if (fileSha?.length && !sha.equals(Buffer.from(fileSha)))
          post.error = 'fileSha256 does not match the uploaded bytes'
      }
    }
    list.push(post)
    this.#posted.set(channelId, list)
    return this.list(channelId).length
  }
}

const MEDIA_TYPES: string[] = ['image', 'video', 'audio', 'document', 'sticker']

/** A tiny real JPEG (8×6), the `jpegThumbnail` of every seeded image and video. */
const SEEDED_THUMBNAIL =
  '/9j/2wBDABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERXRTc4UG1RV19iZ2hnPk1xeXBkeFxlZ2P/2wBDARESEhgVGC8aGi9jQjhCY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2P/wAARCAAGAAgDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAT/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFAEBAAAAAAAAAAAAAAAAAAAABf/EABQRAQAAAAAAAAAAAAAAAAAAAAD/2gAMAwEAAhEDEQA/AIgDQd//2Q=='

function seededMedia(m: WorldChannelMessage, channelKey: string, serverId: number): NonNullable<ChannelPost['media']> {
  const mimetype = mimeFor(m.type)
  return {
    mimetype,
    ...(m.seconds !== undefined ? { seconds: m.seconds } : {}),
    directPath: `/newsletter/${channelKey}/${serverId}.${mimetype.split('/')[1]?.split(';')[0] ?? 'bin'}`,
    ...(m.type === 'image' || m.type === 'video' ? { thumbnail: SEEDED_THUMBNAIL } : {}),
  }
}

const mimeFor = (type: string): string =>
  ({
    image: 'image/jpeg',
    video: 'video/mp4',
    audio: 'audio/ogg; codecs=opus',
    document: 'application/pdf',
    sticker: 'image/webp',
  })[type] ?? 'application/octet-stream'
