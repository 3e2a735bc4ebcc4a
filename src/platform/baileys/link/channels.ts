/**
 * @module platform/baileys/link/channels
 * Channels (newsletters) on an open link (BAILEYS-MAPPING §6): the account's channels from the configured mex query,
 * completed from each channel's own metadata, and a channel's history from the raw `<messages>` IQ. Also the
 * account's role in a channel, which explains a refused channel post.
 */
import { S_WHATSAPP_NET, type BinaryNode, type WASocket } from '@whiskeysockets/baileys'
import { GatewayError } from '../../../protocol/errors.js'
import type { Channel, ChannelPage } from '../../../protocol/spec-types.js'
import {
  CHANNEL_PAGE_SIZE,
  channelRowsOf,
  mapChannel,
  mapChannelPage,
  type RawNewsletter,
} from '../mapping/channel-mapping.js'
import type { PlatformLink } from '../../link.js'
import { mapWithConcurrency } from '../picture-cache.js'
import { iqErrorCode, isPlatformRefusal, mexQuery, queryOrTimeout, subscribedChannelsQuery } from '../query.js'
import type { LinkSocket } from './socket.js'

const NEWSLETTER_METADATA_QUERY_ID = '6563316087068696'

export interface ChannelOps extends Pick<PlatformLink, 'listChannels' | 'listChannelMessages'> {
  /** The account's role in a channel, or undefined when the platform does not know the channel. */
  channelRole(sock: WASocket, channelId: string): Promise<{ role: string } | undefined>
}

export function makeChannels(link: LinkSocket): ChannelOps {
  const timeoutMs = link.settings.QUERY_TIMEOUT_MS

  async function newsletterMetadata(sock: WASocket, channelId: string): Promise<RawNewsletter | undefined> {
    const data = await mexQuery<RawNewsletter | { result?: RawNewsletter } | null>(
      sock.query,
      NEWSLETTER_METADATA_QUERY_ID,
      {
        fetch_creation_time: true,
        fetch_full_image: true,
        fetch_viewer_metadata: true,
        input: { key: channelId, type: 'JID' },
      },
      'xwa2_newsletter',
      timeoutMs,
    )
    if (!data) return undefined
    if ('id' in data && typeof data.id === 'string') return data as RawNewsletter
    return (data as { result?: RawNewsletter }).result
  }

  return {
    async channelRole(sock: WASocket, channelId: string): Promise<{ role: string } | undefined> {
      try {
        const meta = await newsletterMetadata(sock, channelId)
        return meta?.id ? { role: meta.viewer_metadata?.role ?? '' } : undefined
      } catch (err) {
        if (isPlatformRefusal(err)) return undefined
        throw err
      }
    },

    async listChannels(): Promise<Channel[]> {
      const sock = link.requireOpen()
      const list = await subscribedChannelsQuery<RawNewsletter>(
        sock.query,
        link.settings.CHANNEL_LIST_QUERY_ID,
        timeoutMs,
      )
      // some answers omit the viewer role or creation time: complete those from the channel's own metadata
      const full = await mapWithConcurrency(list, link.settings.PICTURE_CONCURRENCY, async n => {
        if (n.viewer_metadata?.role && n.thread_metadata?.creation_time) return n
        try {
          const meta = await newsletterMetadata(sock, n.id)
          return meta ? { ...n, ...meta, thread_metadata: { ...n.thread_metadata, ...meta.thread_metadata } } : n
        } catch {
          return n
        }
      })
      return full.map(mapChannel)
    },

    async listChannelMessages(channelId: string, before?: number): Promise<ChannelPage> {
      const sock = link.requireOpen()
      let meta: RawNewsletter | undefined
      try {
        meta = await newsletterMetadata(sock, channelId)
      } catch (err) {
        if (err instanceof GatewayError && err.code === 'PLATFORM_TIMEOUT') throw err
        if (!isPlatformRefusal(err)) throw err
        meta = undefined
      }
      if (!meta?.id) throw new GatewayError('CHANNEL_NOT_FOUND')
      const attrs: Record<string, string> = { type: 'jid', jid: channelId, count: String(CHANNEL_PAGE_SIZE) }
      if (before && before > 0) attrs.before = String(before)
      let res: BinaryNode
      try {
        res = await queryOrTimeout(
          sock.query,
          {
            tag: 'iq',
            attrs: { to: S_WHATSAPP_NET, type: 'get', xmlns: 'newsletter' },
            content: [{ tag: 'messages', attrs }],
          },
          timeoutMs,
        )
      } catch (err) {
        if (iqErrorCode(err) !== undefined) throw new GatewayError('CHANNEL_NOT_FOUND')
        throw err
      }
      const invite = meta.thread_metadata?.invite ?? ''
      return mapChannelPage(channelRowsOf(res), invite, link.settings.CHANNEL_PAGE_MAX_BYTES)
    },
  }
}
