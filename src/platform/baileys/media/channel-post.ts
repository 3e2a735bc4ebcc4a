/**
 * @module platform/baileys/media/channel-post
 * Media to a channel (newsletter). Baileys rc14 uploads channel media to the normal `/mms/<type>` path and the
 * platform never shows it (BAILEYS-MAPPING §2.7). This is WhatsApp Web's / whatsmeow's recipe instead: upload the
 * raw (unencrypted) bytes to `/newsletter/newsletter-<kind>/<token>`, then send `<message type='media'
 * media_id=<handle>>` with `<plaintext mediatype=<kind>>` carrying the proto. The server's ack answers the query.
 * The upload itself runs in the media pool (./pool-upload.ts), like end-to-end media.
 */
import { proto, type BinaryNode } from '@whiskeysockets/baileys'
import type { UploadAnswer, UploadResult } from './upload-job.js'
import { GatewayError } from '../../../protocol/errors.js'
import { rejectedError } from '../ack.js'
import { isConnectionClosed, isQueryTimeout } from '../boom.js'
import { isManagerRole } from '../mapping/channel-mapping.js'
import type { QueryFn } from '../query.js'

export type ChannelMediaKind = 'image' | 'video' | 'audio' | 'document'

export interface ChannelMediaInput {
  kind: ChannelMediaKind
  filePath: string
  mimetype: string
  caption?: string
  jpegThumbnail?: string // base64
  seconds?: number
  fileName?: string
}

export interface ChannelMediaSocket {
  query: QueryFn
  /** Uploads the file unencrypted to `/newsletter/newsletter-<kind>` (the media pool); throws when refused. */
  uploadRaw(kind: ChannelMediaKind, filePath: string): Promise<UploadResult>
}

/** Builds the unencrypted media proto for a channel post (no mediaKey: channels are not end-to-end encrypted). */
function channelMediaMessage(
  input: ChannelMediaInput,
  upload: UploadAnswer,
  sha256: Uint8Array,
  length: number,
): proto.Message {
  const fields: Record<string, unknown> = {
    url: upload.url,
    directPath: upload.directPath,
    mimetype: input.mimetype,
    fileSha256: sha256,
    fileLength: length,
  }
  if (input.caption) fields.caption = input.caption
  if (input.jpegThumbnail) fields.jpegThumbnail = Buffer.from(input.jpegThumbnail, 'base64')
  if (input.seconds !== undefined) fields.seconds = input.seconds
  if (input.fileName) fields.fileName = input.fileName
  return proto.Message.fromObject({ [`${input.kind}Message`]: fields })
}

/** Uploads and posts; resolves after the server ack. Throws PLATFORM_REJECTED / PLATFORM_TIMEOUT. */
export async function sendChannelMedia(
  sock: ChannelMediaSocket,
  channelJid: string,
  id: string,
  input: ChannelMediaInput,
  opts: { ackTimeoutMs: number },
): Promise<void> {
  const { answer, fileSha256, fileLength } = await sock.uploadRaw(input.kind, input.filePath)
  const message = channelMediaMessage(input, answer, fileSha256, fileLength)
  const node: BinaryNode = {
    tag: 'message',
    attrs: { to: channelJid, id, type: 'media', ...(answer.handle ? { media_id: answer.handle } : {}) },
    content: [{ tag: 'plaintext', attrs: { mediatype: input.kind }, content: proto.Message.encode(message).finish() }],
  }
  const ack = await awaitChannelAck(sock, node, opts.ackTimeoutMs)
  if (ack.attrs.error) throw rejectedError(ack.attrs.error)
}

/**
 * Sends the post and waits for its ack. Baileys' `query` resolves undefined or throws `Timed Out` (408) when nothing
 * comes back in time (which one depends on timer order): both are PLATFORM_TIMEOUT, never an internal error.
 */
async function awaitChannelAck(sock: ChannelMediaSocket, node: BinaryNode, timeoutMs: number): Promise<BinaryNode> {
  let ack: BinaryNode | undefined
  try {
    ack = await sock.query(node, timeoutMs)
  } catch (err) {
    if (isQueryTimeout(err)) throw new GatewayError('PLATFORM_TIMEOUT')
    if (isConnectionClosed(err)) throw new GatewayError('SESSION_NOT_CONNECTED')
    throw err
  }
  if (!ack) throw new GatewayError('PLATFORM_TIMEOUT')
  return ack
}

/** What the channel lookup after a refusal found: `undefined` = no such channel. */
export type ChannelRoleLookup = () => Promise<{ role: string } | undefined>

/**
 * A channel send the platform refused: find out why, so the caller gets a clear error instead of a bare code. Only
 * runs after a refusal (no extra query on the happy path). Unknown channel → CHANNEL_NOT_FOUND; a channel the account
 * neither owns nor administers → CHANNEL_NOT_OWNED; a location or contact (which channels do not carry) → the
 * refusal with that hint (CHANNEL_POST_REJECTED, the platform's code kept). Anything else, or a failed lookup, keeps the original error.
 */
export async function explainChannelRejection(
  err: unknown,
  contentType: string,
  lookup: ChannelRoleLookup,
): Promise<unknown> {
  if (!(err instanceof GatewayError) || err.code !== 'PLATFORM_REJECTED') return err
  let found: { role: string } | undefined
  try {
    found = await lookup()
  } catch {
    return err
  }
  if (!found) return new GatewayError('CHANNEL_NOT_FOUND')
  if (!isManagerRole(found.role)) return new GatewayError('CHANNEL_NOT_OWNED')
  if (contentType === 'location' || contentType === 'contact') {
    return new GatewayError('CHANNEL_POST_REJECTED', { platformCode: err.platformCode ?? 'unknown' })
  }
  return err
}
