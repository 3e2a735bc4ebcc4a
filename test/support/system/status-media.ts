/**
 * Media and world fixtures for the POST /status end-to-end tests: a large photo (so compression has to shrink it),
 * a solid-colour video made with the system's ffmpeg (so a thumbnail taken from the video has that colour,
 * unlike the grey default; NOT_A_VIDEO without ffmpeg, whose test is then skipped), and a big address book for the
 * batching test.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import sharp from 'sharp'
import { ffmpegFound, makeWithFfmpeg, NOT_A_VIDEO } from '../ffmpeg.js'

/** A 4000x3000 photo-like JPEG: noise makes it compress poorly, like a real camera picture. */
export async function largePhoto(): Promise<Buffer> {
  const width = 4000
  const height = 3000
  return sharp({
    create: {
      width,
      height,
      channels: 3,
      background: { r: 30, g: 120, b: 200 },
      noise: { type: 'gaussian', mean: 128, sigma: 40 },
    },
  })
    .jpeg({ quality: 95 })
    .toBuffer()
}

/** A 2-second solid blue 320x240 H.264 MP4. */
export async function blueVideo(): Promise<Buffer> {
  if (!ffmpegFound) return NOT_A_VIDEO
  const dir = mkdtempSync(path.join(os.tmpdir(), 'e2e-status-video-'))
  try {
    const file = path.join(dir, 'blue.mp4')
    await makeWithFfmpeg([
      '-f',
      'lavfi',
      '-i',
      'color=c=0x0000FF:s=320x240:d=2:r=10',
      '-c:v',
      'libx264',
      '-pix_fmt',
      'yuv420p',
      '-movflags',
      '+faststart',
      '-y',
      file,
    ])
    return readFileSync(file)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** `count` distinct phone numbers starting at `first` (digits only). */
export function phoneRange(first: number, count: number): string[] {
  return Array.from({ length: count }, (_, i) => String(first + i))
}
