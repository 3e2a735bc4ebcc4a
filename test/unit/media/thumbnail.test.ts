import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadSettings } from '../../../src/gateway-settings.js'
import { compressStatusImage } from '../../../src/media/compress.js'
import {
  defaultThumbnail,
  firstThumbnail,
  THUMBNAIL_WIDTH,
  thumbnailFromImage,
  thumbnailFromVideo,
} from '../../../src/media/thumbnail.js'
import { defaultFfmpeg, ffmpegTests, makeTestClip } from '../../support/ffmpeg.js'

const MAX_PIXELS = loadSettings({}).MEDIA_MAX_PIXELS

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'thumb-test-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

const noisyImage = (width: number, height: number) => {
  const raw = Buffer.alloc(width * height * 3)
  for (let i = 0; i < raw.length; i++) raw[i] = (i * 7919) % 256
  return sharp(raw, { raw: { width, height, channels: 3 } })
}

describe('thumbnails', () => {
  it('shrinks an image to a small JPEG', async () => {
    const png = await noisyImage(800, 600).png().toBuffer()
    const thumb = await thumbnailFromImage(png, MAX_PIXELS)
    const meta = await sharp(thumb).metadata()
    expect(meta.format).toBe('jpeg')
    expect(meta.width).toBe(THUMBNAIL_WIDTH)
    expect(meta.height).toBe(54)
    expect(thumb.length).toBeLessThan(10_000)
  })

  ffmpegTests.it('takes a frame of a video with the ffmpeg found on PATH, inside the default limits', async () => {
    expect(defaultFfmpeg().ffmpeg).toBeTruthy()
    const video = path.join(dir, 'clip.mp4')
    await makeTestClip(video)
    const thumb = await thumbnailFromVideo(video, defaultFfmpeg(), MAX_PIXELS)
    const meta = await sharp(thumb).metadata()
    expect(meta.format).toBe('jpeg')
    expect(meta.width).toBe(THUMBNAIL_WIDTH)
    expect(meta.height).toBe(54)
  })

  ffmpegTests.it('video frame extraction fails on a missing file', async () => {
    await expect(thumbnailFromVideo(path.join(dir, 'does-not-exist.mp4'), defaultFfmpeg(), MAX_PIXELS)).rejects.toThrow(
      /ffmpeg exited/,
    )
  })

  it('falls back to the default grey thumbnail when every source fails', async () => {
    const errors: unknown[] = []
    const thumb = await firstThumbnail(
      [() => Promise.reject(new Error('one')), () => thumbnailFromImage(Buffer.from('not an image'), MAX_PIXELS)],
      err => errors.push(err),
    )
    expect(errors).toHaveLength(2)
    expect(thumb.equals(await defaultThumbnail())).toBe(true)
    const { data, info } = await sharp(thumb).raw().toBuffer({ resolveWithObject: true })
    expect(info.width).toBe(THUMBNAIL_WIDTH)
    expect(Math.abs((data[0] ?? 0) - 204)).toBeLessThan(8)
  })

  it('uses the first source that works', async () => {
    const png = await noisyImage(100, 100).png().toBuffer()
    const thumb = await firstThumbnail([
      () => Promise.reject(new Error('x')),
      () => thumbnailFromImage(png, MAX_PIXELS),
    ])
    expect(thumb.equals(await defaultThumbnail())).toBe(false)
  })
})

describe('status image compression', () => {
  it('fits a big image inside 1080x1920 as a smaller JPEG', async () => {
    const big = await noisyImage(3000, 4000).png().toBuffer()
    const out = await compressStatusImage(big, MAX_PIXELS)
    const meta = await sharp(out).metadata()
    expect(meta.format).toBe('jpeg')
    expect(meta.width).toBe(1080)
    expect(meta.height).toBe(1440)
    expect(out.length).toBeLessThan(big.length)
  })

  it('does not enlarge a small image', async () => {
    const small = await noisyImage(300, 200).png().toBuffer()
    const meta = await sharp(await compressStatusImage(small, MAX_PIXELS)).metadata()
    expect([meta.width, meta.height]).toEqual([300, 200])
  })
})
