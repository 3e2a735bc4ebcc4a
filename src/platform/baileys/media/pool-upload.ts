/**
 * @module platform/baileys/media/pool-upload
 * Media files are encrypted and uploaded in the shard's media pool (./media-pool.ts), off the shard thread and at
 * a low CPU priority, instead of by Baileys on the thread that serves every session of the shard. The link asks
 * the platform for the media connection (hosts and auth), hands the file to the pool, and gives Baileys the result
 * through its media cache hook: `prepareWAMessageMedia` looks up `<type>:<url>` there first and, on a hit, builds
 * the message from the cached proto plus the content's own fields (caption, mimetype, thumbnail...) without
 * touching the file. So the message is exactly the one Baileys would have made, only the work moved.
 */
import {
  getAudioDuration,
  MEDIA_HKDF_KEY_MAPPING,
  MEDIA_PATH_MAP,
  proto,
  unixTimestampSeconds,
  type CacheStore,
  type WASocket,
} from '@whiskeysockets/baileys'
import { threadMediaPool } from './media-pool.js'
import type { SendMediaDeps } from '../../../media/send-media.js'
import type { InMediaSlot } from '../../../media/media-slots.js'
import type { UploadJob, UploadResult } from './upload-job.js'
import { GatewayError } from '../../../protocol/errors.js'
import { withTimeout } from '../query.js'
import type { LinkSocket } from '../link/socket.js'
import { proxyConnectionSettings } from '../../../proxy/proxy-connection.js'

export type UploadKind = 'image' | 'video' | 'audio' | 'document'

/** How the link makes a send's media ready (downloads, pixel limit, thumbnails: media/send-media.ts). */
export const sendMediaDepsOf = (link: LinkSocket): SendMediaDeps => ({
  download: link.download,
  ffmpeg: link.ffmpeg,
  maxPixels: link.settings.MEDIA_MAX_PIXELS,
  logger: link.log,
})

const UPLOAD_TIMEOUT_MS = 120_000

/** The platform's media hosts and upload auth (Baileys caches them for their TTL); asked before a media slot is
 * taken, since waiting for the platform's answer is not work. */
export const mediaConnection = (link: LinkSocket, sock: WASocket, force = false) =>
  withTimeout(sock.refreshMediaConn(force), link.settings.QUERY_TIMEOUT_MS)

/**
 * Uploads one file through the pool, the encryption and upload in a media slot (`inSlot`); a refused upload is
 * retried once with a fresh media connection.
 */
export async function uploadInPool(
  link: LinkSocket,
  sock: WASocket,
  mode: UploadJob['mode'],
  kind: UploadKind,
  filePath: string,
  inSlot: InMediaSlot,
): Promise<UploadResult> {
  const pool = threadMediaPool({ threads: link.settings.MEDIA_SENDS_PER_SHARD, nice: link.settings.MEDIA_THREAD_NICE })
  let failure = ''
  for (const force of [false, true]) {
    const mediaConn = await mediaConnection(link, sock, force)
    const outcome = await inSlot(() =>
      pool.run({
        mode,
        filePath,
        ...(mode === 'encrypted' ? { keyInfo: `WhatsApp ${MEDIA_HKDF_KEY_MAPPING[kind]} Keys` } : {}),
        target: {
          hosts: mediaConn.hosts.map(h => h.hostname),
          auth: mediaConn.auth,
          pathPrefix: mode === 'encrypted' ? MEDIA_PATH_MAP[kind]! : `/newsletter/newsletter-${kind}`,
          timeoutMs: UPLOAD_TIMEOUT_MS,
          ...(link.options.sandbox ? { ca: link.options.sandbox.caCert } : {}),
          // behind the session's proxy, the upload goes through it too
          ...(link.options.proxy
            ? { proxy: { route: link.options.proxy, settings: proxyConnectionSettings(link.settings) } }
            : {}),
        },
      }),
    )
    if (outcome.ok) return outcome.result
    failure = outcome.reason
  }
  link.log.warn({ reason: failure, kind }, 'media upload failed')
  throw new GatewayError('MEDIA_UPLOAD_FAILED')
}

/**
 * The end-to-end media file of a message content, if it has one: `{ document: { url: <temp file> } }` and so on,
 * as mapping/message-content.ts builds them. Contents whose media is a buffer (a recompressed status image) are left to
 * Baileys: they are small.
 */
function mediaFileOf(content: object): { kind: UploadKind; filePath: string } | undefined {
  for (const kind of ['image', 'video', 'audio', 'document'] as const) {
    const media = (content as Record<string, unknown>)[kind]
    if (media && typeof media === 'object' && 'url' in media && typeof media.url === 'string') {
      return { kind, filePath: media.url }
    }
  }
  return undefined
}

/** What `sendMessage`/`generateWAMessage` take as `mediaCache`: answers exactly this one file, stores nothing. */
function preparedMediaCache(kind: UploadKind, filePath: string, uploaded: UploadResult): CacheStore {
  const encoded = proto.Message.encode(
    proto.Message.fromObject({
      [`${kind}Message`]: {
        url: uploaded.answer.url,
        directPath: uploaded.answer.directPath,
        mediaKey: uploaded.mediaKey,
        fileEncSha256: uploaded.fileEncSha256,
        fileSha256: uploaded.fileSha256,
        fileLength: uploaded.fileLength,
        mediaKeyTimestamp: unixTimestampSeconds(),
      },
    }),
  ).finish()
  const key = `${kind}:${filePath}`
  return {
    get: <T>(k: string): T | undefined => (k === key ? (encoded as T) : undefined),
    set: () => undefined,
    del: () => undefined,
    flushAll: () => undefined,
  }
}

/**
 * Uploads the content's media file (if any) in the pool, in a media slot, and returns the options that make Baileys
 * use it. An audio without a duration gets one measured here first, as Baileys would have (it skips that on a cache
 * hit).
 */
export async function poolMediaOptions(
  link: LinkSocket,
  sock: WASocket,
  content: object,
  inSlot: InMediaSlot,
): Promise<{ mediaCache?: CacheStore }> {
  const media = mediaFileOf(content)
  if (!media) return {}
  if (media.kind === 'audio' && (content as { seconds?: number }).seconds === undefined) {
    const seconds = await getAudioDuration(media.filePath).catch(() => undefined)
    if (seconds !== undefined) (content as { seconds?: number }).seconds = seconds
  }
  const uploaded = await uploadInPool(link, sock, 'encrypted', media.kind, media.filePath, inSlot)
  return { mediaCache: preparedMediaCache(media.kind, media.filePath, uploaded) }
}
