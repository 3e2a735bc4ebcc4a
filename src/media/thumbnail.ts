/**
 * @module media/thumbnail
 * Small JPEG thumbnails for image and video messages (passed to Baileys as `jpegThumbnail`, so Baileys never runs
 * its own `exec('ffmpeg')`). Size: 72 px wide, JPEG quality 60: a few KB, larger than Baileys' 32 px default so the
 * preview is legible. The spec says "a default thumbnail is used when empty": when nothing else works we use a
 * generated grey JPEG, so a message never goes out without one.
 */
import { loadSharp } from './sharp.js'
import { runFfmpeg, type FfmpegOptions } from './ffmpeg.js'

export const THUMBNAIL_WIDTH = 72
const THUMBNAIL_QUALITY = 60

/** Shrinks any image sharp can read (buffer or file path) to the thumbnail JPEG; one over `maxPixels`
 * (MEDIA_MAX_PIXELS, media/image-pixels.ts) is not decoded: sharp throws `Input image exceeds pixel limit`. */
export async function thumbnailFromImage(input: Buffer | string, maxPixels: number): Promise<Buffer> {
  const sharp = await loadSharp()
  return (
    sharp(input, { failOn: 'none', limitInputPixels: maxPixels })
      .rotate()
      // width 72; very tall images are capped at 4:1 so a thumbnail stays a few KB
      .resize({ width: THUMBNAIL_WIDTH, height: THUMBNAIL_WIDTH * 4, fit: 'inside' })
      .jpeg({ quality: THUMBNAIL_QUALITY })
      .toBuffer()
  )
}

/**
 * Demuxers ffmpeg may pick for a video (matched against any of a demuxer's names, `mov,mp4,m4a,3gp,3g2,mj2`):
 * MP4/MOV/3GP (what the platform plays), Matroska/WebM, AVI and MPEG-TS. Everything else is refused, above all
 * the playlist and script formats (hls, concat, image2...) that make ffmpeg open further files or URLs named inside
 * a tenant's file. Such a video still goes out, with the default thumbnail.
 */
export const VIDEO_FORMAT_WHITELIST = 'mov,matroska,avi,mpegts'

/**
 * ffmpeg's input options for an untrusted file: only the `file` protocol (a file naming an http or other URL opens
 * nothing), only the demuxers above, and one decoder and filter thread (a thumbnail needs one frame; the memory cap
 * is the process's address space, which every extra thread's stack takes from).
 */
const UNTRUSTED_INPUT_ARGS: readonly string[] = [
  '-protocol_whitelist',
  'file',
  '-format_whitelist',
  VIDEO_FORMAT_WHITELIST,
  '-threads',
  '1',
  '-filter_threads',
  '1',
]

/** Takes the first frame of a video file with ffmpeg and shrinks it (a frame over `maxPixels` is not decoded).
 * Throws when ffmpeg is missing or fails. */
export async function thumbnailFromVideo(videoPath: string, ffmpeg: FfmpegOptions, maxPixels: number): Promise<Buffer> {
  const frame = await runFfmpeg(
    [
      '-hide_banner',
      '-nostdin',
      '-loglevel',
      'error',
      ...UNTRUSTED_INPUT_ARGS,
      '-ss',
      '0',
      '-i',
      videoPath,
      '-frames:v',
      '1',
      '-vf',
      `scale=${THUMBNAIL_WIDTH * 2}:-2`,
      '-f',
      'image2pipe',
      '-c:v',
      'mjpeg',
      'pipe:1',
    ],
    ffmpeg,
  )
  if (frame.length === 0) throw new Error('ffmpeg produced no frame')
  return thumbnailFromImage(frame, maxPixels)
}

let defaultThumb: Promise<Buffer> | undefined

/** A neutral grey 72x72 JPEG, made once per process. */
export function defaultThumbnail(): Promise<Buffer> {
  defaultThumb ??= loadSharp().then(sharp =>
    sharp({
      create: { width: THUMBNAIL_WIDTH, height: THUMBNAIL_WIDTH, channels: 3, background: { r: 204, g: 204, b: 204 } },
    })
      .jpeg({ quality: THUMBNAIL_QUALITY })
      .toBuffer(),
  )
  return defaultThumb
}

/**
 * Tries each source in order and returns the first thumbnail that works, else the default one. `onError` sees
 * every failure (for a warn log); none of them fails the message. (Sources decode files already downloaded: a
 * thumbnail URL the SSRF guard refused failed the message before, message-content.ts.)
 */
export async function firstThumbnail(
  sources: Array<() => Promise<Buffer>>,
  onError?: (err: unknown) => void,
): Promise<Buffer> {
  for (const source of sources) {
    try {
      return await source()
    } catch (err) {
      onError?.(err)
    }
  }
  return defaultThumbnail()
}
