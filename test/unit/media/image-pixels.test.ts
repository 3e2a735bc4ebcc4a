/**
 * The pixel limit (MEDIA_MAX_PIXELS, src/media/image-pixels.ts) against a real decompression bomb: an 18 KB PNG of
 * 15,000 × 10,000 pixels, which sharp's own default (268 million pixels) would decode. An image message or status
 * image declaring it is refused from its header with a 400 naming the limit and the size, nothing left on disk and
 * nothing decoded; as a thumbnail URL it is a failed thumbnail and the preview is made from the photo; every sharp
 * call of the gateway refuses to decode it.
 */
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import sharp from 'sharp'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { loadSettings } from '../../../src/gateway-settings.js'
import { compressStatusImage } from '../../../src/media/compress.js'
import { downloadOptionsFromSettings } from '../../../src/media/download.js'
import { ffmpegOptionsFromSettings } from '../../../src/media/ffmpeg.js'
import { checkImagePixels } from '../../../src/media/image-pixels.js'
import { thumbnailFromImage } from '../../../src/media/thumbnail.js'
import { prepareSendMedia, prepareStatusMedia, type SendMediaDeps } from '../../../src/media/send-media.js'
import { GatewayError } from '../../../src/protocol/errors.js'
import { pngBomb } from '../../support/png-bomb.js'
import { onLoopback, type OnLoopback } from '../../support/loopback-server.js'

const LIMIT = loadSettings({}).MEDIA_MAX_PIXELS
const REFUSAL = `image is larger than the limit of ${LIMIT} pixels (15000 x 10000)`
let bomb: Buffer
let photo: Buffer
let served: OnLoopback<http.Server>
let base: string
let tempDir: string

beforeAll(async () => {
  bomb = pngBomb(15_000, 10_000)
  photo = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#0000ff' } })
    .jpeg()
    .toBuffer()
  served = await onLoopback(
    http.createServer((req, res) => {
      const body = req.url === '/bomb.png' ? bomb : photo
      res.writeHead(200, { 'content-type': req.url === '/bomb.png' ? 'image/png' : 'image/jpeg' }).end(body)
    }),
  )
  base = served.url
})
afterAll(() => served.close())
beforeEach(async () => {
  tempDir = await mkdtemp(path.join(os.tmpdir(), 'pixels-'))
})
afterEach(async () => {
  await rm(tempDir, { recursive: true, force: true })
})

const depsWith = (warnings: Array<{ err: Error }> = []): SendMediaDeps => {
  const settings = loadSettings({ MEDIA_ALLOW_PRIVATE_URLS: 'true' })
  return {
    download: { ...downloadOptionsFromSettings(settings), tempDir },
    ffmpeg: ffmpegOptionsFromSettings(settings),
    maxPixels: settings.MEDIA_MAX_PIXELS,
    logger: { warn: (obj: { err: Error }) => warnings.push(obj) } as unknown as SendMediaDeps['logger'],
  }
}

/** The refusal every way in gets: a GatewayError, 400, naming the limit and the image's size. */
const refused = (work: Promise<unknown>) =>
  expect(work).rejects.toSatisfy(
    (err: unknown) =>
      err instanceof GatewayError &&
      err.status === 400 &&
      err.code === 'MEDIA_TOO_MANY_PIXELS' &&
      err.message === REFUSAL,
  )

describe('the pixel limit', () => {
  it('is 100 million pixels by default, under what the bomb declares, in a file of a few KB', () => {
    expect(LIMIT).toBe(100_000_000)
    expect(15_000 * 10_000).toBeGreaterThan(LIMIT)
    expect(bomb.length).toBeLessThan(32 * 1024)
  })

  it('refuses the bomb from its header, and lets an ordinary image or a file that is not one pass', async () => {
    const file = path.join(tempDir, 'bomb.png')
    await writeFile(file, bomb)
    await refused(checkImagePixels(file, LIMIT))
    await writeFile(file, photo)
    await checkImagePixels(file, LIMIT)
    await writeFile(file, 'not an image')
    await checkImagePixels(file, LIMIT)
  })

  it('no sharp call of the gateway decodes it', async () => {
    await expect(thumbnailFromImage(bomb, LIMIT)).rejects.toThrow('Input image exceeds pixel limit')
    await expect(compressStatusImage(bomb, LIMIT)).rejects.toThrow('Input image exceeds pixel limit')
  })

  it('an image message of it is a 400 naming the limit and the size, and nothing stays on disk', async () => {
    await refused(
      prepareSendMedia({ type: 'image', image: { url: `${base}/bomb.png`, mimetype: 'image/png' } }, depsWith()),
    )
    expect(await readdir(tempDir)).toEqual([])
  })

  it('a status image of it is the same 400, refused before any media slot is asked for', async () => {
    let slotAsked = false
    await refused(
      prepareStatusMedia({ type: 'image', image: { url: `${base}/bomb.png`, mimetype: 'image/png' } }, depsWith(), {
        inMediaSlot: work => {
          slotAsked = true
          return work()
        },
      }),
    )
    expect(slotAsked).toBe(false)
    expect(await readdir(tempDir)).toEqual([])
  })

  it('as a thumbnail URL it is a failed thumbnail: the preview is made from the photo, and the message goes', async () => {
    const warnings: Array<{ err: Error }> = []
    const p = await prepareSendMedia(
      { type: 'image', image: { url: `${base}/photo.jpg`, mimetype: 'image/jpeg', thumbnail: `${base}/bomb.png` } },
      depsWith(warnings),
    )
    try {
      const preview = Buffer.from(p.jpegThumbnail!, 'base64')
      const { data } = await sharp(preview).raw().toBuffer({ resolveWithObject: true })
      expect(data[2]! / 255).toBeGreaterThan(0.8) // blue: the photo's, not the bomb's black
      expect(warnings.map(w => w.err.message)).toEqual(['Input image exceeds pixel limit'])
    } finally {
      await p.dispose()
    }
  })
})
