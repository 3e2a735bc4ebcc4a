/**
 * @module platform/baileys/mapping/message-content
 * Spec MessageContent / StatusContent → Baileys AnyMessageContent (BAILEYS-MAPPING §2.3, §3.2–3.3). Media is
 * downloaded by the gateway first (temp files, removed by `dispose()`), thumbnails are made here so Baileys never
 * shells out to ffmpeg. The socket is not needed: this is testable with a local HTTP server.
 */
import type { AnyMessageContent } from '@whiskeysockets/baileys'
import type { Logger } from 'pino'
import type { MessageContent, StatusContent } from '../../../protocol/spec-types.js'
import { compressStatusImage } from '../../../media/compress.js'
import type { FfmpegOptions } from '../../../media/ffmpeg.js'
import { downloadToTemp, type DownloadedFile, type DownloadOptions, type MediaKind } from '../../../media/download.js'
import { mediaTooLarge } from '../../../protocol/errors.js'
import { observeMediaDownload } from '../../../metrics/observe.js'
import { firstThumbnail, thumbnailFromImage, thumbnailFromVideo } from '../../../media/thumbnail.js'
import { buildVCard } from './vcard.js'

export interface PreparedContent {
  content: AnyMessageContent
  /** Main media file (for the channel upload path), if any. */
  media?: { kind: 'image' | 'video' | 'audio' | 'document'; file: DownloadedFile }
  /** Removes every temp file. Always call it (finally). */
  dispose(): Promise<void>
}

export interface PrepareDeps {
  download: DownloadOptions
  /** How video thumbnails run ffmpeg; with no ffmpeg found, videos get the default thumbnail (warned once at start). */
  ffmpeg: FfmpegOptions
  logger: Pick<Logger, 'warn'>
}

class TempFiles {
  readonly files: DownloadedFile[] = []
  constructor(private readonly options: DownloadOptions) {}
  /**
   * `field` (`image.url`) names the URL in a 400 when the SSRF guard refuses it. `kind` names what is fetched: the
   * main media of a message gets its type's cap, and going over it is a 400 naming the cap; a thumbnail gets the
   * thumbnail cap, and going over it is a failed thumbnail like any other (the preview is then made from the media).
   */
  async fetch(url: string, field: string, kind: MediaKind | 'thumbnail'): Promise<DownloadedFile> {
    const cap = kind === 'thumbnail' ? this.options.maxThumbnailBytes : this.options.maxBytesPerKind?.[kind]
    const options =
      cap === undefined
        ? this.options
        : {
            ...this.options,
            maxBytes: Math.min(cap, this.options.maxBytes),
            ...(kind === 'thumbnail' ? {} : { tooLarge: (max: number) => mediaTooLarge(kind, max) }),
          }
    const file = await observeMediaDownload(downloadToTemp(url, { ...options, urlField: field }))
    this.files.push(file)
    return file
  }
  async dispose(): Promise<void> {
    await Promise.all(this.files.map(f => f.dispose()))
  }
}

/** Thumbnail for an image/video: the given URL shrunk, else made from the media itself, else the default. */
async function thumbnailFor(
  temp: TempFiles,
  deps: PrepareDeps,
  kind: 'image' | 'video',
  mediaPath: string,
  thumbnailUrl: string | undefined,
): Promise<string> {
  const sources: Array<() => Promise<Buffer>> = []
  if (thumbnailUrl)
    sources.push(async () =>
      thumbnailFromImage((await temp.fetch(thumbnailUrl, `${kind}.thumbnail`, 'thumbnail')).path),
    )
  if (kind === 'image') sources.push(() => thumbnailFromImage(mediaPath))
  // no ffmpeg: straight to the default thumbnail, without a warning per video (main.ts warned at start)
  else if (deps.ffmpeg.ffmpeg) sources.push(() => thumbnailFromVideo(mediaPath, deps.ffmpeg))
  const thumb = await firstThumbnail(sources, err =>
    deps.logger.warn({ err, kind }, 'thumbnail failed, trying next source'),
  )
  return thumb.toString('base64')
}

/** Builds the content of a POST /message. Throws MEDIA_DOWNLOAD_FAILED; nothing is left on disk after a throw. */
export async function prepareMessageContent(
  message: MessageContent,
  deps: PrepareDeps,
  signal?: AbortSignal,
): Promise<PreparedContent> {
  const temp = new TempFiles({ ...deps.download, ...(signal ? { signal } : {}) })
  try {
    switch (message.type) {
      case 'text':
        return { content: { text: message.text, linkPreview: null }, dispose: () => temp.dispose() }
      case 'location': {
        const l = message.location
        return {
          content: {
            location: {
              degreesLatitude: l.latitude,
              degreesLongitude: l.longitude,
              ...(l.name ? { name: l.name } : {}),
              ...(l.address ? { address: l.address } : {}),
            },
          },
          dispose: () => temp.dispose(),
        }
      }
      case 'contact': {
        const c = message.contact
        return {
          content: {
            contacts: { displayName: c.name, contacts: [{ displayName: c.name, vcard: buildVCard(c.name, c.phone) }] },
          },
          dispose: () => temp.dispose(),
        }
      }
      case 'image': {
        const file = await temp.fetch(message.image.url, 'image.url', 'image')
        const jpegThumbnail = await thumbnailFor(temp, deps, 'image', file.path, message.image.thumbnail)
        return {
          content: {
            image: { url: file.path },
            mimetype: message.image.mimetype,
            jpegThumbnail,
            ...(message.text ? { caption: message.text } : {}),
          },
          media: { kind: 'image', file },
          dispose: () => temp.dispose(),
        }
      }
      case 'video': {
        const file = await temp.fetch(message.video.url, 'video.url', 'video')
        const jpegThumbnail = await thumbnailFor(temp, deps, 'video', file.path, message.video.thumbnail)
        return {
          // `seconds` is a VideoMessage field the TS content type lacks; Baileys copies it into the proto
          content: {
            video: { url: file.path },
            mimetype: message.video.mimetype,
            jpegThumbnail,
            seconds: message.video.duration,
            ...(message.text ? { caption: message.text } : {}),
          } as AnyMessageContent,
          media: { kind: 'video', file },
          dispose: () => temp.dispose(),
        }
      }
      case 'audio': {
        const file = await temp.fetch(message.audio.url, 'audio.url', 'audio')
        return {
          content: {
            audio: { url: file.path },
            mimetype: message.audio.mimetype,
            ptt: false,
            seconds: message.audio.duration,
          },
          media: { kind: 'audio', file },
          dispose: () => temp.dispose(),
        }
      }
      case 'document': {
        const file = await temp.fetch(message.document.url, 'document.url', 'document')
        // spec `size` is deliberately not passed as fileLength: Baileys would let it override the real length
        return {
          content: {
            document: { url: file.path },
            mimetype: message.document.mimetype,
            fileName: message.document.name,
            ...(message.text ? { caption: message.text } : {}),
          },
          media: { kind: 'document', file },
          dispose: () => temp.dispose(),
        }
      }
    }
  } catch (err) {
    await temp.dispose()
    throw err
  }
}

/** Dark WhatsApp green; a string because Baileys' assertColor drops numbers (BAILEYS-MAPPING §3.2). */
export const STATUS_BACKGROUND = '#075E54'

/** Builds the content of a POST /status: images recompressed, videos get an ffmpeg frame when no thumbnail given. */
export async function prepareStatusContent(
  status: StatusContent,
  deps: PrepareDeps,
  signal?: AbortSignal,
): Promise<PreparedContent> {
  if (status.type === 'text') return prepareMessageContent(status, deps, signal)
  if (status.type === 'video') return prepareMessageContent(status, deps, signal)
  const temp = new TempFiles({ ...deps.download, ...(signal ? { signal } : {}) })
  try {
    const file = await temp.fetch(status.image.url, 'image.url', 'image')
    const compressed = await compressStatusImage(file.path)
    const jpegThumbnail = await thumbnailFor(temp, deps, 'image', file.path, status.image.thumbnail)
    return {
      content: {
        image: compressed,
        mimetype: 'image/jpeg',
        jpegThumbnail,
        ...(status.text ? { caption: status.text } : {}),
      },
      dispose: () => temp.dispose(),
    }
  } catch (err) {
    await temp.dispose()
    throw err
  }
}
