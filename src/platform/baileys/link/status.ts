/**
 * @module platform/baileys/link/status
 * Posting a status on an open link (BAILEYS-MAPPING §3): the account's status privacy picks the recipients, the
 * message is generated (and its media uploaded) once, then relayed in batches under one id, each batch waiting for
 * its server ack.
 */
import { generateMessageIDV2, generateWAMessage, S_WHATSAPP_NET, type WASocket } from '@whiskeysockets/baileys'
import type { StatusContent } from '../../../protocol/spec-types.js'
import type { PlatformLink, SendOptions } from '../../link.js'
import { STATUS_BACKGROUND, statusContent } from '../mapping/message-content.js'
import { prepareStatusMedia } from '../../../media/send-media.js'
import { slotOf } from '../../../media/media-slots.js'
import { iqErrorCode, queryOrTimeout } from '../query.js'
import { batches, parseStatusPrivacy, pickStatusRecipients, type StatusPrivacy } from '../mapping/status-recipients.js'
import { mediaConnection, poolMediaOptions, sendMediaDepsOf } from '../media/pool-upload.js'
import { sendWithAck } from './messages.js'
import type { LinkSocket } from './socket.js'

/** Recipients per status relay; one message id and one media upload are reused for every batch. */
export const STATUS_BATCH_SIZE = 500
const STATUS_JID = 'status@broadcast'

export type StatusOps = Pick<PlatformLink, 'postStatus'>

export function makeStatus(link: LinkSocket): StatusOps {
  async function statusPrivacy(sock: WASocket): Promise<StatusPrivacy> {
    try {
      const res = await queryOrTimeout(
        sock.query,
        {
          tag: 'iq',
          attrs: { to: S_WHATSAPP_NET, type: 'get', xmlns: 'status' },
          content: [{ tag: 'privacy', attrs: {} }],
        },
        link.settings.QUERY_TIMEOUT_MS,
      )
      return parseStatusPrivacy(res)
    } catch (err) {
      if (iqErrorCode(err) === 404) return parseStatusPrivacy(undefined) // no setting stored: "my contacts"
      throw err
    }
  }

  return {
    async postStatus(status: StatusContent, options: SendOptions = {}): Promise<{ statusId: string }> {
      const sock = link.requireOpen()
      const privacy = await statusPrivacy(sock)
      const recipients = pickStatusRecipients(privacy, await link.options.contacts.all(), link.ownJid(sock))
      const media = await prepareStatusMedia(status, sendMediaDepsOf(link), options)
      const prepared = statusContent(status, media)
      try {
        const id = generateMessageIDV2(sock.user?.id)
        const inSlot = slotOf(options)
        // a video is encrypted and uploaded in the pool, in a media slot
        const pooled = await poolMediaOptions(link, sock, prepared, inSlot)
        const generate = () =>
          generateWAMessage(STATUS_JID, prepared, {
            logger: link.baileysLogger,
            userJid: sock.authState.creds.me!.id,
            upload: sock.waUploadToServer,
            messageId: id,
            ...(status.type === 'text' ? { backgroundColor: STATUS_BACKGROUND } : {}),
            ...pooled,
          })
        // Generated (and its media uploaded) once; each batch relays the same message under the same id, outside any
        // slot. A recompressed image is a buffer Baileys encrypts and uploads itself: that in a slot, with the media
        // hosts asked for first (Baileys then takes them from its cache).
        if (status.type === 'image') await mediaConnection(link, sock)
        const message = status.type === 'image' ? await inSlot(generate) : await generate()
        for (const batch of batches(recipients, STATUS_BATCH_SIZE)) {
          await sendWithAck(link, sock, id, () =>
            sock.relayMessage(STATUS_JID, message.message!, { messageId: id, statusJidList: batch }),
          )
        }
        return { statusId: id }
      } finally {
        await media.dispose()
      }
    },
  }
}
