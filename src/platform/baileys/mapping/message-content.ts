/**
 * @module platform/baileys/mapping/message-content
 * Spec MessageContent / StatusContent → Baileys AnyMessageContent (BAILEYS-MAPPING §2.3, §3.2–3.3). Media is
 * downloaded by the gateway first (temp files, removed by `dispose()`), thumbnails are made here so Baileys never
 * shells out to ffmpeg. Every download (the media, then its thumbnail URL) comes first; the decoding that follows
 * (thumbnails, a status image's recompression) runs through `inMediaSlot`, so waiting on a slow origin never holds
 * a media slot (media-slots.ts). An image over MEDIA_MAX_PIXELS is refused from its header (media/image-pixels.ts).
 * The socket is not needed: this is testable with a local HTTP server.
 */
import type { AnyMessageContent } from '@whiskeysockets/baileys'
import type { Logger } from 'pino'
import type { InMediaSlot, SendOptions } from '../../link.js'
import type { MessageContent, StatusContent } from '../../../protocol/spec-types.js'
import { compressStatusImage } from '../../../media/compress.js'
import type { FfmpegOptions } from '../../../media/ffmpeg.js'
import { downloadToTemp, type DownloadedFile, type DownloadOptions, type MediaKind } from '../../../media/download.js'
import { GatewayError } from '../../../protocol/errors.js'
import { checkImagePixels } from '../../../media/image-pixels.js'
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
  /** MEDIA_MAX_PIXELS: the largest image decoded; an image or status image over it is a 400. */
  maxPixels: number
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
            ...(kind === 'thumbnail'
              ? {}
              : { tooLarge: (max: number) => new GatewayError('MEDIA_TOO_LARGE', { kind, max }) }),
          }
    const file = await observeMediaDownload(downloadToTemp(url, { ...options, urlField: field }))
    this.files.push(file)
    return file
  }
  async dispose(): Promise<void> {
    await Promise.all(this.files.map(f => f.dispose()))
  }
}

const warnThumbnail = (deps: PrepareDeps, kind: 'image' | 'video', err: unknown) =>
  deps.logger.warn({ err, kind }, 'thumbnail failed, trying next source')

/** Downloads the thumbnail URL, if given. Failing is a failed thumbnail (the preview is then made from the media),
 * except a URL the SSRF guard refused: the client's 400, as for the media URL itself. */
async function fetchThumbnail(
  temp: TempFiles,
  deps: PrepareDeps,
  kind: 'image' | 'video',
  url: string | undefined,
): Promise<string | undefined> {
  if (!url) return undefined
  try {
    return (await temp.fetch(url, `${kind}.thumbnail`, 'thumbnail')).path
  } catch (err) {
    if (err instanceof GatewayError && err.code === 'PRIVATE_ADDRESS') throw err
    warnThumbnail(deps, kind, err)
    return undefined
  }
}

/** Thumbnail for an image/video, from files on disk: the thumbnail file shrunk, else one made from the media
 * itself, else the default. */
async function thumbnailFor(
  deps: PrepareDeps,
  kind: 'image' | 'video',
  mediaPath: string,
  thumbnailPath: string | undefined,
): Promise<string> {
  const sources: Array<() => Promise<Buffer>> = []
  if (thumbnailPath) sources.push(() => thumbnailFromImage(thumbnailPath, deps.maxPixels))
  if (kind === 'image') sources.push(() => thumbnailFromImage(mediaPath, deps.maxPixels))
  // no ffmpeg: straight to the default thumbnail, without a warning per video (main.ts warned at start)
  else if (deps.ffmpeg.ffmpeg) sources.push(() => thumbnailFromVideo(mediaPath, deps.ffmpeg, deps.maxPixels))
  const thumb = await firstThumbnail(sources, err => warnThumbnail(deps, kind, err))
  return thumb.toString('base64')
}

/** What runs a send's CPU work: the caller's media slot, or at once. */
export const slotOf = (options: SendOptions): InMediaSlot => options.inMediaSlot ?? (work => work())

/** Builds the content of a POST /message. Throws MEDIA_DOWNLOAD_FAILED; nothing is left on disk after a throw. */
export async function prepareMessageContent(
  message: MessageContent,
  deps: PrepareDeps,
  options: SendOptions = {},
): Promise<PreparedContent> {
  const { signal } = options
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
        await checkImagePixels(file.path, deps.maxPixels)
        const thumbnail = await fetchThumbnail(temp, deps, 'image', message.image.thumbnail)
        const jpegThumbnail = await slotOf(options)(() => thumbnailFor(deps, 'image', file.path, thumbnail))
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
        const thumbnail = await fetchThumbnail(temp, deps, 'video', message.video.thumbnail)
        const jpegThumbnail = await slotOf(options)(() => thumbnailFor(deps, 'video', file.path, thumbnail))
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
  options: SendOptions = {},
): Promise<PreparedContent> {
  if (status.type === 'text') return prepareMessageContent(status, deps, options)
  if (status.type === 'video') return prepareMessageContent(status, deps, options)
  const { signal } = options
  const temp = new TempFiles({ ...deps.download, ...(signal ? { signal } : {}) })
  try {
    const file = await temp.fetch(status.image.url, 'image.url', 'image')
    await checkImagePixels(file.path, deps.maxPixels)
    const thumbnail = await fetchThumbnail(temp, deps, 'image', status.image.thumbnail)
    const { compressed, jpegThumbnail } = await slotOf(options)(async () => ({
      compressed: await compressStatusImage(file.path, deps.maxPixels),
      jpegThumbnail: await thumbnailFor(deps, 'image', file.path, thumbnail),
    }))
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
