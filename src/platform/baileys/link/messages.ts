/**
 * @module platform/baileys/link/messages
 * Sending on an open link (BAILEYS-MAPPING §2): media is downloaded by the gateway first, a 1:1 send goes to the
 * contact's LID when one is known, and a send resolves only after the server's ack. Channel media takes the
 * newsletter upload path (media/channel-post.ts); a refused channel post is explained from the account's role.
 * Also chat states (typing), which need no ack.
 */
import {
  generateMessageIDV2,
  jidNormalizedUser,
  type MiscMessageGenerationOptions,
  type WASocket,
} from '@whiskeysockets/baileys'
import { GatewayError } from '../../../protocol/errors.js'
import type { Destination, MessageContent, TypingDestination } from '../../../protocol/spec-types.js'
import { sendAndAwaitAck } from '../ack.js'
import { isConnectionClosed } from '../boom.js'
import { phoneJid } from '../mapping/jids.js'
import type { PlatformLink, SendOptions } from '../../link.js'
import { messageContent } from '../mapping/message-content.js'
import { prepareSendMedia, type SendMedia } from '../../../media/send-media.js'
import { slotOf } from '../../../media/media-slots.js'
import {
  explainChannelRejection,
  sendChannelMedia,
  type ChannelMediaInput,
  type ChannelMediaKind,
} from '../media/channel-post.js'
import { iqErrorCode, withTimeout } from '../query.js'
import type { ChannelOps } from './channels.js'
import { poolMediaOptions, sendMediaDepsOf, uploadInPool } from '../media/pool-upload.js'
import type { LinkSocket } from './socket.js'
import { markTcTokenIssued } from './tc-token.js'
import { patchApplies } from '../patches/inventory.js'

export type MessageOps = Pick<PlatformLink, 'sendMessage' | 'sendTyping'>

/** Runs `send` and waits for the server ack of `id`; a socket closing on the way is SESSION_NOT_CONNECTED. */
export async function sendWithAck<T>(link: LinkSocket, sock: WASocket, id: string, send: () => Promise<T>): Promise<T> {
  try {
    return await sendAndAwaitAck(sock.ws, id, link.settings.ACK_TIMEOUT_MS, send, link.ended)
  } catch (err) {
    if (err instanceof GatewayError) throw err
    if (isConnectionClosed(err)) throw new GatewayError('SESSION_NOT_CONNECTED')
    throw err
  }
}

/** A media message → the channel upload's input (with the thumbnail made while preparing it, if any). */
function channelMediaInput(
  c: Extract<MessageContent, { type: ChannelMediaKind }>,
  media: NonNullable<SendMedia['file']>,
  jpegThumbnail: string | undefined,
): ChannelMediaInput {
  return {
    kind: media.kind,
    filePath: media.file.path,
    mimetype:
      c.type === 'image'
        ? c.image.mimetype
        : c.type === 'video'
          ? c.video.mimetype
          : c.type === 'audio'
            ? c.audio.mimetype
            : c.document.mimetype,
    ...('text' in c && c.text ? { caption: c.text } : {}),
    ...(jpegThumbnail ? { jpegThumbnail } : {}),
    ...(c.type === 'video' ? { seconds: c.video.duration } : c.type === 'audio' ? { seconds: c.audio.duration } : {}),
    ...(c.type === 'document' ? { fileName: c.document.name } : {}),
  }
}

export function makeMessages(link: LinkSocket, channels: Pick<ChannelOps, 'channelRole'>): MessageOps {
  const timeoutMs = link.settings.QUERY_TIMEOUT_MS

  /** Phone → the contact's LID when one is known (1:1 sends to LID-migrated contacts), else the PN JID. */
  async function phoneDestination(sock: WASocket, digits: string): Promise<string> {
    const pn = phoneJid(digits)
    try {
      const lid = await withTimeout(sock.signalRepository.lidMapping.getLIDForPN(pn), timeoutMs)
      if (lid) return jidNormalizedUser(lid)
    } catch (err) {
      link.log.debug({ err, pn }, 'LID lookup failed, sending to the phone-number JID')
    }
    return pn
  }

  return {
    async sendMessage(
      destination: Destination,
      content: MessageContent,
      options: SendOptions = {},
    ): Promise<{ messageId: string }> {
      const sock = link.requireOpen()
      const media = await prepareSendMedia(content, sendMediaDepsOf(link), options)
      const prepared = messageContent(content, media)
      // encryption and upload take a media slot; the waits for the platform (media hosts, the ack) do not
      const inSlot = slotOf(options)
      try {
        const id = generateMessageIDV2(sock.user?.id)
        if (destination.kind === 'channel' && media.file) {
          const channelSock = {
            query: sock.query,
            uploadRaw: (kind: ChannelMediaKind, filePath: string) =>
              uploadInPool(link, sock, 'raw', kind, filePath, inSlot),
          }
          const input = channelMediaInput(
            content as Extract<MessageContent, { type: ChannelMediaKind }>,
            media.file,
            media.jpegThumbnail,
          )
          await sendChannelMedia(channelSock, destination.jid, id, input, {
            ackTimeoutMs: link.settings.ACK_TIMEOUT_MS,
          })
          return { messageId: id }
        }
        const jid = destination.kind === 'phone' ? await phoneDestination(sock, destination.phone) : destination.jid
        // the media file (if any) is encrypted and uploaded in the media pool; Baileys builds the message from it
        const options: MiscMessageGenerationOptions = {
          messageId: id,
          ...(await poolMediaOptions(link, sock, prepared, inSlot)),
        }
        // kept before the 200, so a recipient's retry receipt is answered even after a crash; the row commits with
        // the send's Signal keys where the store can (link/retry-messages.ts)
        const chats = destination.kind === 'phone' ? [jid, phoneJid(destination.phone)] : [jid]
        link.retries.expect(id, chats)
        try {
          const sent = await sendWithAck(link, sock, id, () => sock.sendMessage(jid, prepared, options))
          // Baileys' own record of it is lost (tc-token.ts): without this, every send issues our privacy token again
          // (only where Baileys is the version it was written for: patches/inventory.ts)
          if (destination.kind === 'phone' && patchApplies('privacy-token record')) {
            await markTcTokenIssued(sock, jid, sent?.message).catch((err: unknown) =>
              link.log.debug({ err, jid }, 'could not record the privacy-token issuance'),
            )
          }
          await link.retries.remember(id, chats, sent?.message)
        } finally {
          link.retries.forget(id)
        }
        return { messageId: id }
      } catch (err) {
        // Baileys fetches the group's metadata before a group send: an unknown group (404) or one we are not in (403)
        // surfaces as a bare iq error, which the caller should see as GROUP_NOT_FOUND.
        if (destination.kind === 'group' && [403, 404].includes(iqErrorCode(err) ?? 0))
          throw new GatewayError('GROUP_NOT_FOUND')
        if (destination.kind !== 'channel') throw err
        throw await explainChannelRejection(err, content.type, () => channels.channelRole(sock, destination.jid))
      } finally {
        await media.dispose()
      }
    },

    async sendTyping(destination: TypingDestination, state: 'composing' | 'recording' | 'paused'): Promise<void> {
      const sock = link.requireOpen()
      // the same address as messages: a contact moved to LID addressing would never see a typing sent to its number
      const jid = destination.kind === 'group' ? destination.jid : await phoneDestination(sock, destination.phone)
      try {
        await sock.sendPresenceUpdate(state, jid)
      } catch (err) {
        // the socket closed under us (a drop the link has not reported yet): the spec's answer, not a 500 of our own
        if (isConnectionClosed(err)) throw new GatewayError('SESSION_NOT_CONNECTED')
        throw err
      }
    },
  }
}
