/**
 * @module media/send-media
 * The files of one send, made ready before the platform sees them (BAILEYS-MAPPING §2.2): the media downloaded by
 * the gateway to a temp file (its type's cap, the SSRF guard), an image over MEDIA_MAX_PIXELS refused from its
 * header (./image-pixels.ts), the thumbnail URL downloaded, and the preview made from it or from the media itself
 * (sharp, ffmpeg; the default one when both fail), a status image recompressed. Every download comes first; the
 * decoding that follows runs through `inMediaSlot`, so waiting on a slow origin never holds a media slot
 * (./media-slots.ts). Nothing is left on disk after a throw, and `dispose()` removes the rest.
 *
 * What the platform makes of these files is its adapter's business (platform/baileys/mapping/message-content.ts).
 */
import type { Logger } from 'pino'
import type { MessageContent, StatusContent } from '../protocol/spec-types.js'
import { GatewayError } from '../protocol/errors.js'
import { observeMediaDownload } from '../metrics/observe.js'
import { compressStatusImage } from './compress.js'
import { downloadToTemp, type DownloadedFile, type DownloadOptions, type MediaKind } from './download.js'
import type { FfmpegOptions } from './ffmpeg.js'
import { checkImagePixels } from './image-pixels.js'
import { slotOf, type InMediaSlot } from './media-slots.js'
import { firstThumbnail, thumbnailFromImage, thumbnailFromVideo } from './thumbnail.js'

export interface SendMediaDeps {
  download: DownloadOptions
  /** How video thumbnails run ffmpeg; with no ffmpeg found, videos get the default thumbnail (warned once at start). */
  ffmpeg: FfmpegOptions
  /** MEDIA_MAX_PIXELS: the largest image decoded; an image or status image over it is a 400. */
  maxPixels: number
  logger: Pick<Logger, 'warn'>
}

/** How a send runs: the client hanging up stops its downloads; its CPU work runs in the media slot given. */
export interface SendMediaOptions {
  signal?: AbortSignal
  inMediaSlot?: InMediaSlot
}

/** A send's media, ready: what a content with no media has is only `dispose`. */
export interface SendMedia {
  /** The main media file (its temp file: the channel upload and the media pool read it). */
  file?: { kind: MediaKind; file: DownloadedFile }
  /** The preview of an image or video, a base64 JPEG. */
  jpegThumbnail?: string
  /** A status image, recompressed (the platform's status viewer size). */
  compressed?: Buffer
  /** Removes every temp file. Always call it (finally). */
  dispose(): Promise<void>
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

const warnThumbnail = (deps: SendMediaDeps, kind: 'image' | 'video', err: unknown) =>
  deps.logger.warn({ err, kind }, 'thumbnail failed, trying next source')

/** Downloads the thumbnail URL, if given. Failing is a failed thumbnail (the preview is then made from the media),
 * except a URL the SSRF guard refused: the client's 400, as for the media URL itself. */
async function fetchThumbnail(
  temp: TempFiles,
  deps: SendMediaDeps,
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
  deps: SendMediaDeps,
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

/** The media of a POST /message content. Throws MEDIA_DOWNLOAD_FAILED (and the 400s of the caps and the guard). */
export async function prepareSendMedia(
  content: MessageContent,
  deps: SendMediaDeps,
  options: SendMediaOptions = {},
): Promise<SendMedia> {
  const temp = new TempFiles({ ...deps.download, ...(options.signal ? { signal: options.signal } : {}) })
  const dispose = () => temp.dispose()
  try {
    switch (content.type) {
      case 'image': {
        const file = await temp.fetch(content.image.url, 'image.url', 'image')
        await checkImagePixels(file.path, deps.maxPixels)
        const thumbnail = await fetchThumbnail(temp, deps, 'image', content.image.thumbnail)
        const jpegThumbnail = await slotOf(options)(() => thumbnailFor(deps, 'image', file.path, thumbnail))
        return { file: { kind: 'image', file }, jpegThumbnail, dispose }
      }
      case 'video': {
        const file = await temp.fetch(content.video.url, 'video.url', 'video')
        const thumbnail = await fetchThumbnail(temp, deps, 'video', content.video.thumbnail)
        const jpegThumbnail = await slotOf(options)(() => thumbnailFor(deps, 'video', file.path, thumbnail))
        return { file: { kind: 'video', file }, jpegThumbnail, dispose }
      }
      case 'audio':
        return { file: { kind: 'audio', file: await temp.fetch(content.audio.url, 'audio.url', 'audio') }, dispose }
      case 'document': {
        const file = await temp.fetch(content.document.url, 'document.url', 'document')
        return { file: { kind: 'document', file }, dispose }
      }
      default:
        return { dispose }
    }
  } catch (err) {
    await temp.dispose()
    throw err
  }
}

/** The media of a POST /status: an image recompressed (and its preview made) in one turn of the slot. */
export async function prepareStatusMedia(
  status: StatusContent,
  deps: SendMediaDeps,
  options: SendMediaOptions = {},
): Promise<SendMedia> {
  if (status.type !== 'image') return prepareSendMedia(status, deps, options)
  const temp = new TempFiles({ ...deps.download, ...(options.signal ? { signal: options.signal } : {}) })
  try {
    const file = await temp.fetch(status.image.url, 'image.url', 'image')
    await checkImagePixels(file.path, deps.maxPixels)
    const thumbnail = await fetchThumbnail(temp, deps, 'image', status.image.thumbnail)
    const { compressed, jpegThumbnail } = await slotOf(options)(async () => ({
      compressed: await compressStatusImage(file.path, deps.maxPixels),
      jpegThumbnail: await thumbnailFor(deps, 'image', file.path, thumbnail),
    }))
    return { compressed, jpegThumbnail, dispose: () => temp.dispose() }
  } catch (err) {
    await temp.dispose()
    throw err
  }
}
