/**
 * @module sandbox/handlers/channels
 * Channels: `w:mex` GraphQL-style queries (subscribed list, metadata, follow/unfollow) answered with JSON, and the
 * `newsletter` iq for message history (`<messages type='jid' jid count before>`) and `message_updates`.
 */
import type { BinaryNode } from '@whiskeysockets/baileys'
import { proto } from '@whiskeysockets/baileys'
import type { ChannelPost, ChannelStore } from '../channels.js'
import type { SandboxContext } from '../context.js'
import { bytes, child, iqError, iqResult, node } from '../nodes.js'
import type { WorldChannel } from '../types.js'
import type { IqHandler } from './types.js'

/** Default query ids treated as "list subscribed channels" (the platform rotates these; this is whatsmeow's). */
export const DEFAULT_SUBSCRIBED_QUERY_IDS = ['6388546374527196']
const METADATA_QUERY_ID = '6563316087068696'

const seconds = (iso: string | undefined): string =>
  String(Math.floor((iso ? Date.parse(iso) : Date.now()) / 1000) || 0)

function channelJson(ctx: SandboxContext, channel: WorldChannel, phone: string | undefined): Record<string, unknown> {
  const role = viewerRole(channel, phone)
  const key = channel.id.split('@')[0]
  // Channel pictures are public: the platform gives a direct URL besides the path (here, on the media host).
  const picture = { id: '1', direct_path: `/pp/n-${key}.jpg`, url: `https://${ctx.mediaHost()}/pp/n-${key}.jpg` }
  return {
    id: channel.id,
    state: { type: 'ACTIVE' },
    thread_metadata: {
      creation_time: seconds(channel.created),
      name: { text: channel.name, id: '1', update_time: seconds(channel.created) },
      description: { text: channel.description ?? '', id: '1', update_time: seconds(channel.created) },
      handle: null,
      invite: channel.invite ?? key,
      subscribers_count: String((channel.followers ?? []).length),
      verification: 'UNVERIFIED',
      picture: channel.picture ? { ...picture, type: 'IMAGE' } : null,
      preview: channel.picture ? { ...picture, type: 'PREVIEW' } : null,
      settings: { reaction_codes: { value: 'ALL' } },
    },
    viewer_metadata: { mute: 'OFF', role },
  }
}

function viewerRole(channel: WorldChannel, phone: string | undefined): 'OWNER' | 'ADMIN' | 'SUBSCRIBER' | 'GUEST' {
  if (!phone) return 'GUEST'
  if (channel.owner === phone) return 'OWNER'
  if ((channel.admins ?? []).includes(phone)) return 'ADMIN'
  return (channel.followers ?? []).includes(phone) ? 'SUBSCRIBER' : 'GUEST'
}

export const mexHandler: IqHandler = (ctx, conn, iq) => {
  const query = child(iq, 'query')
  const queryId = query?.attrs.query_id ?? ''
  let variables: Record<string, unknown> = {}
  try {
    variables =
      (JSON.parse(bytes(query)?.toString('utf8') ?? '{}') as { variables?: Record<string, unknown> }).variables ?? {}
  } catch {
    return iqError(iq, 400, 'bad-request')
  }
  const phone = conn.account?.phone
  const world = ctx.world()
  const reply = (data: unknown): BinaryNode => iqResult(iq, [node('result', {}, JSON.stringify({ data }))])
  ctx.stats.tally('mexQueryIds', queryId)
  if (ctx.subscribedQueryIds.has(queryId)) {
    const mine = world.channels.filter(c => viewerRole(c, phone) !== 'GUEST')
    return reply({ xwa2_newsletter_subscribed: mine.map(c => channelJson(ctx, c, phone)) })
  }
  const input = variables.input as { key?: string } | undefined
  if (queryId === METADATA_QUERY_ID || input?.key) {
    const keyValue = input?.key ?? ''
    const channel = world.channels.find(c => c.id === keyValue || c.id.split('@')[0] === keyValue)
    if (!channel)
      return iqResult(iq, [
        node(
          'result',
          {},
          JSON.stringify({ data: null, errors: [{ message: 'not found', extensions: { error_code: 404 } }] }),
        ),
      ])
    return reply({ xwa2_newsletter: channelJson(ctx, channel, phone) })
  }
  const newsletterId = variables.newsletter_id as string | undefined
  if (newsletterId) {
    const channel = world.channels.find(c => c.id === newsletterId)
    if (!channel) return iqError(iq, 404, 'item-not-found')
    return reply({
      xwa2_newsletter_join_v2: { id: channel.id },
      xwa2_newsletter_leave_v2: { id: channel.id },
      xwa2_newsletter_mute_v2: { id: channel.id },
      xwa2_newsletter_unmute_v2: { id: channel.id },
    })
  }
  return iqError(iq, 400, 'unknown query')
}

/**
 * proto.Message bytes for a channel post (unencrypted: channels are not end-to-end encrypted). Seeded media carry
 * `url` + `directPath` on the media host and, for images and videos, a `jpegThumbnail`, like the platform's.
 */
function postMessage(ctx: SandboxContext, post: ChannelPost): Uint8Array {
  if (post.plaintext) return post.plaintext
  const caption = post.caption ?? undefined
  const mimetype = post.media?.mimetype
  const directPath = post.media?.directPath
  const where = directPath ? { directPath, url: `https://${ctx.mediaHost()}${directPath}` } : {}
  const jpegThumbnail = post.media?.thumbnail ? Buffer.from(post.media.thumbnail, 'base64') : undefined
  let message: proto.IMessage
  switch (post.type) {
    case 'text':
      message = { extendedTextMessage: { text: post.text ?? '' } }
      break
    case 'image':
      message = { imageMessage: { caption, mimetype, ...where, jpegThumbnail } }
      break
    case 'video':
      message = { videoMessage: { caption, mimetype, seconds: post.media?.seconds, ...where, jpegThumbnail } }
      break
    case 'audio':
      message = { audioMessage: { mimetype, seconds: post.media?.seconds, ...where } }
      break
    case 'document':
      message = { documentMessage: { caption, mimetype, fileName: 'document.pdf', ...where } }
      break
    case 'sticker':
      message = { stickerMessage: { mimetype, ...where } }
      break
    case 'location':
      message = { locationMessage: { degreesLatitude: 52.52, degreesLongitude: 13.405, name: post.text ?? '' } }
      break
    case 'poll':
      message = {
        pollCreationMessageV3: {
          name: post.seed?.name ?? '',
          options: (post.seed?.options ?? []).map(optionName => ({ optionName })),
          selectableOptionsCount: 1,
        },
      }
      break
    default:
      message = { extendedTextMessage: { text: post.text ?? '' } }
  }
  return proto.Message.encode(message).finish()
}

const messageType = (type: string): string => (type === 'text' ? 'text' : type === 'poll' ? 'poll' : 'media')

export const makeNewsletterHandler =
  (channels: ChannelStore): IqHandler =>
  (ctx, _conn, iq) => {
    const history = child(iq, 'messages')
    const updates = child(iq, 'message_updates')
    // whatsmeow-style history names the channel in <messages jid>, sent to s.whatsapp.net; Baileys sends to the channel.
    const channelId = history?.attrs.jid ?? iq.attrs.to ?? ''
    if (!ctx.world().channels.some(c => c.id === channelId)) return iqError(iq, 404, 'item-not-found')
    const all = channels.list(channelId)
    const toNode = (p: ChannelPost): BinaryNode =>
      node(
        'message',
        { id: p.id, server_id: String(p.serverId), t: String(p.t), type: messageType(p.type), views_count: '0' },
        [node('plaintext', {}, postMessage(ctx, p))],
      )
    const now = String(Math.floor(Date.now() / 1000))
    if (history) {
      const count = Math.max(1, Number(history.attrs.count ?? 50))
      const before = history.attrs.before ? Number(history.attrs.before) : Infinity
      const page = all.filter(p => p.serverId < before).slice(-count)
      return iqResult(iq, [node('messages', { jid: channelId, t: now }, page.map(toNode))])
    }
    if (updates) {
      const count = Math.max(1, Number(updates.attrs.count ?? 50))
      return iqResult(iq, [
        node('message_updates', {}, [node('messages', { jid: channelId, t: now }, all.slice(-count).map(toNode))]),
      ])
    }
    return iqResult(iq)
  }
