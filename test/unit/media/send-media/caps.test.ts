/**
 * The media caps of a send made ready (src/media/send-media.ts; the files themselves are ./files.test.ts). Per-type
 * caps (MEDIA_MAX_BYTES_IMAGE/VIDEO/AUDIO/DOCUMENT), applied while downloading: a file over its type's cap is a 400
 * naming the type and the cap (declared length or streamed), nothing is left on disk, a file of another type under
 * its own cap passes, and MEDIA_MAX_BYTES still bounds every type. Documents default to the platform's 2 GB: one
 * above the old 64 MiB cap is taken whole. Thumbnail URLs have their own small cap (MEDIA_MAX_BYTES_THUMBNAIL): over
 * it, the preview is made from the media itself.
 */
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { Readable } from 'node:stream'
import sharp from 'sharp'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { loadSettings } from '../../../../src/gateway-settings.js'
import { downloadOptionsFromSettings } from '../../../../src/media/download.js'
import { ffmpegOptionsFromSettings } from '../../../../src/media/ffmpeg.js'
import { prepareSendMedia, prepareStatusMedia, type SendMediaDeps } from '../../../../src/media/send-media.js'
import { takeThreadCounts } from '../../../../src/metrics/thread-counters.js'
import { GatewayError } from '../../../../src/protocol/errors.js'
import { onLoopback, type OnLoopback } from '../../../support/loopback-server.js'

const FILE = Buffer.alloc(3_000, 7)
const MiB = 1024 * 1024
/** One byte over the document cap the gateway had before it took the platform's figure. */
const OVER_OLD_DOCUMENT_CAP = 64 * MiB + 1
let served: OnLoopback<http.Server>
let base: string
/** The photo (blue) and a thumbnail for it (red), real JPEGs, so a preview tells which one it was made from. */
let blue: Buffer
let red: Buffer

/** `bytes` generated 1 MiB at a time, never held whole: a large origin streaming without a Content-Length. */
function generated(bytes: number): Readable {
  const chunk = Buffer.alloc(MiB, 0x5a)
  let left = bytes
  return new Readable({
    read() {
      const n = Math.min(left, chunk.length)
      left -= n
      this.push(n ? chunk.subarray(0, n) : null)
    },
  })
}

beforeAll(async () => {
  blue = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#0000ff' } })
    .jpeg()
    .toBuffer()
  red = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#ff0000' } })
    .jpeg({ quality: 100 })
    .toBuffer()
  served = await onLoopback(
    http.createServer((req, res) => {
      if (req.url?.startsWith('/big')) {
        res.writeHead(200)
        generated(OVER_OLD_DOCUMENT_CAP).pipe(res)
        return
      }
      if (req.url === '/blue.jpg' || req.url === '/red.jpg') {
        res.writeHead(200, { 'content-type': 'image/jpeg' })
        res.end(req.url === '/blue.jpg' ? blue : red)
        return
      }
      // /declared sends a Content-Length, /streamed does not (the cap must hold while streaming).
      if (req.url?.startsWith('/declared')) res.writeHead(200, { 'content-length': FILE.length })
      else res.writeHead(200)
      res.end(FILE)
    }),
  )
  base = served.url
})
afterAll(() => served.close())

let tempDir: string
const depsWith = (env: Record<string, string>): SendMediaDeps => ({
  download: { ...downloadOptionsFromSettings(loadSettings({ MEDIA_ALLOW_PRIVATE_URLS: 'true', ...env })), tempDir },
  ffmpeg: ffmpegOptionsFromSettings(loadSettings(env)),
  maxPixels: loadSettings(env).MEDIA_MAX_PIXELS,
  logger: { warn: () => undefined } as unknown as SendMediaDeps['logger'],
})
beforeEach(async () => {
  tempDir = await mkdtemp(path.join(os.tmpdir(), 'limits-media-'))
})
afterEach(async () => {
  await rm(tempDir, { recursive: true, force: true })
})

async function failure(work: Promise<unknown>): Promise<GatewayError> {
  const err = await work.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(err).toBeInstanceOf(GatewayError)
  return err as GatewayError
}

const caps = { MEDIA_MAX_BYTES_AUDIO: '1000', MEDIA_MAX_BYTES_DOCUMENT: '2000', MEDIA_MAX_BYTES_IMAGE: '100000' }

describe('per-type media caps', () => {
  it.each(['declared', 'streamed'])('an audio over its cap (%s length) is a 400 naming the cap', async how => {
    const err = await failure(
      prepareSendMedia(
        { type: 'audio', audio: { url: `${base}/${how}.ogg`, mimetype: 'audio/ogg', duration: 2 } },
        depsWith(caps),
      ),
    )
    expect(err.code).toBe('MEDIA_TOO_LARGE')
    expect(err.status).toBe(400)
    expect(err.message).toBe('audio is larger than the limit of 1000 bytes')
    expect(await readdir(tempDir)).toEqual([]) // the partial file is gone
  })

  it('applies each type its own cap', async () => {
    const doc = await failure(
      prepareSendMedia(
        {
          type: 'document',
          document: { url: `${base}/streamed.pdf`, name: 'a.pdf', size: 3000, mimetype: 'application/pdf' },
        },
        depsWith(caps),
      ),
    )
    expect(doc.message).toBe('document is larger than the limit of 2000 bytes')
    const fine = await prepareSendMedia(
      {
        type: 'document',
        document: { url: `${base}/streamed.pdf`, name: 'a.pdf', size: 3000, mimetype: 'application/pdf' },
      },
      depsWith({ ...caps, MEDIA_MAX_BYTES_DOCUMENT: '3000' }),
    )
    expect(fine.file?.file.bytes).toBe(3000)
    await fine.dispose()
  })

  it('caps a status image like a message image', async () => {
    const err = await failure(
      prepareStatusMedia(
        { type: 'image', image: { url: `${base}/declared.jpg`, mimetype: 'image/jpeg' } },
        depsWith({ MEDIA_MAX_BYTES_IMAGE: '2999' }),
      ),
    )
    expect(err.message).toBe('image is larger than the limit of 2999 bytes')
  })

  it('keeps MEDIA_MAX_BYTES as the bound for every type', async () => {
    const err = await failure(
      prepareSendMedia(
        { type: 'audio', audio: { url: `${base}/streamed.ogg`, mimetype: 'audio/ogg', duration: 2 } },
        depsWith({ MEDIA_MAX_BYTES: '500' }),
      ),
    )
    expect(err.message).toBe('audio is larger than the limit of 500 bytes')
  })

  it('has defaults that fit the platform: 16 MiB images and audio, 64 MiB video, 2 GiB documents', () => {
    const c = loadSettings({})
    expect([
      c.MEDIA_MAX_BYTES_IMAGE,
      c.MEDIA_MAX_BYTES_AUDIO,
      c.MEDIA_MAX_BYTES_VIDEO,
      c.MEDIA_MAX_BYTES_DOCUMENT,
    ]).toEqual([16 * MiB, 16 * MiB, 64 * MiB, 2048 * MiB])
    // the ceiling over every type does not cut documents short of their own cap
    expect(c.MEDIA_MAX_BYTES).toBe(c.MEDIA_MAX_BYTES_DOCUMENT)
  })

  it('with the default settings, takes a document above the old 64 MiB cap whole, streamed from the origin', async () => {
    const doc = await prepareSendMedia(
      {
        type: 'document',
        document: {
          url: `${base}/big.bin`,
          name: 'big.bin',
          size: OVER_OLD_DOCUMENT_CAP,
          mimetype: 'application/octet-stream',
        },
      },
      depsWith({}),
    )
    try {
      expect(doc.file?.kind).toBe('document')
      expect(doc.file?.file.bytes).toBe(OVER_OLD_DOCUMENT_CAP)
      expect((await stat(doc.file!.file.path)).size).toBe(OVER_OLD_DOCUMENT_CAP)
    } finally {
      await doc.dispose()
    }
    expect(await readdir(tempDir)).toEqual([])
  }, 30_000)
})

describe('thumbnail cap', () => {
  /** The red share of a base64 JPEG preview's first pixel (1 = red, 0 = blue). */
  const redness = async (b64: string) => {
    const { data } = await sharp(Buffer.from(b64, 'base64')).raw().toBuffer({ resolveWithObject: true })
    return data[0]! / 255
  }
  const withThumbnail = (env: Record<string, string>, warnings: unknown[]) =>
    prepareSendMedia(
      {
        type: 'image',
        image: { url: `${base}/blue.jpg`, mimetype: 'image/jpeg', thumbnail: `${base}/red.jpg` },
      },
      {
        ...depsWith(env),
        logger: {
          warn: (obj: unknown) => {
            warnings.push(obj)
          },
        } as unknown as SendMediaDeps['logger'],
      },
    )

  it('a thumbnail under MEDIA_MAX_BYTES_THUMBNAIL is the preview', async () => {
    const warnings: unknown[] = []
    const p = await withThumbnail({}, warnings)
    expect(await redness(p.jpegThumbnail!)).toBeGreaterThan(0.8)
    expect(warnings).toEqual([])
    await p.dispose()
  })

  it('a thumbnail over it is cut off while downloading; the preview is made from the photo and the message still goes', async () => {
    takeThreadCounts()
    const warnings: Array<{ err: Error }> = []
    const cap = red.length - 1
    const p = await withThumbnail({ MEDIA_MAX_BYTES_THUMBNAIL: String(cap) }, warnings)
    expect(await redness(p.jpegThumbnail!)).toBeLessThan(0.2)
    expect(warnings.map(w => w.err.message)).toEqual([`error parser file from url file larger than ${cap} bytes`])
    expect(takeThreadCounts()).toContainEqual({ key: 'mediaDownloads', labels: { result: 'too_large' }, value: 1 })
    expect(p.file?.file.bytes).toBe(blue.length) // the photo itself is under its own, larger cap
    await p.dispose()
    expect(await readdir(tempDir)).toEqual([])
  })

  it('defaults to 5 MiB, far below the media caps it used to share (2 GiB with documents)', () => {
    const c = loadSettings({})
    expect(c.MEDIA_MAX_BYTES_THUMBNAIL).toBe(5 * 1024 * 1024)
    expect(downloadOptionsFromSettings(c).maxThumbnailBytes).toBe(5 * 1024 * 1024)
    expect(c.MEDIA_MAX_BYTES).toBe(2048 * 1024 * 1024)
  })
})
