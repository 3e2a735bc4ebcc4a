/**
 * Media files for the POST /message end-to-end tests, made on the spot: a JPEG photo, a tall JPEG used as an explicit
 * thumbnail (its shape tells it apart from a thumbnail made from the photo), an MP4 and an MP3 made with the system's
 * ffmpeg (NOT_A_VIDEO without one: the tests that send them are then skipped, see test/support/ffmpeg.ts), and a
 * small PDF.
 */
import sharp from 'sharp'
import { ffmpegFound, makeWithFfmpeg, NOT_A_VIDEO } from '../ffmpeg.js'

export interface MediaFile {
  body: Buffer
  type: string
}

export interface MessageFixtures {
  photo: MediaFile
  /** 60×180 green: any thumbnail made from it is three times taller than wide. */
  tallThumb: MediaFile
  video: MediaFile
  audio: MediaFile
  pdf: MediaFile
}

/** ffmpeg writes to stdout; MP4 needs a fragmented layout to be written to a pipe. */
async function ffmpegOut(args: string[]): Promise<Buffer> {
  return ffmpegFound ? makeWithFfmpeg(args) : NOT_A_VIDEO
}

export async function makeFixtures(): Promise<MessageFixtures> {
  const photo = await sharp({ create: { width: 320, height: 240, channels: 3, background: { r: 200, g: 40, b: 90 } } })
    .jpeg()
    .toBuffer()
  const tallThumb = await sharp({
    create: { width: 60, height: 180, channels: 3, background: { r: 20, g: 200, b: 60 } },
  })
    .jpeg()
    .toBuffer()
  const video = await ffmpegOut([
    '-f',
    'lavfi',
    '-i',
    'testsrc=duration=2:size=160x120:rate=10',
    '-pix_fmt',
    'yuv420p',
    '-c:v',
    'mpeg4',
    '-movflags',
    'frag_keyframe+empty_moov',
    '-f',
    'mp4',
    'pipe:1',
  ])
  const audio = await ffmpegOut([
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:duration=2',
    '-c:a',
    'libmp3lame',
    '-f',
    'mp3',
    'pipe:1',
  ])
  // A minimal PDF; the recipient only has to get these exact bytes with this mimetype and name.
  const pdf = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n')
  return {
    photo: { body: photo, type: 'image/jpeg' },
    tallThumb: { body: tallThumb, type: 'image/jpeg' },
    video: { body: video, type: 'video/mp4' },
    audio: { body: audio, type: 'audio/mpeg' },
    pdf: { body: pdf, type: 'application/pdf' },
  }
}
