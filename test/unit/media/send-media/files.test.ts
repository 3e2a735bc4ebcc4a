/**
 * The files of a send, made ready (src/media/send-media.ts) against a local HTTP server: downloads, previews from a
 * thumbnail URL, the media itself or the default, a status image recompressed, every temp file removed, and the
 * media slot asked for only once the downloads are done.
 */
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, beforeEach, afterEach, describe, expect, it } from 'vitest'
import { prepareSendMedia, prepareStatusMedia, type SendMediaDeps } from '../../../../src/media/send-media.js'
import { defaultThumbnail } from '../../../../src/media/thumbnail.js'
import { defaultFfmpeg, ffmpegTests, makeTestClip } from '../../../support/ffmpeg.js'
import { startTrickleServer } from '../../../support/fakes/trickle-server.js'
import { onLoopback, type OnLoopback } from '../../../support/loopback-server.js'

let served: OnLoopback<http.Server>
let base: string
let fixtures: string
let jpeg: Buffer
let bigJpeg: Buffer
let mp4: Buffer

beforeAll(async () => {
  fixtures = await mkdtemp(path.join(os.tmpdir(), 'mc-fixtures-'))
  jpeg = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#3366cc' } })
    .jpeg()
    .toBuffer()
  bigJpeg = await sharp({ create: { width: 2400, height: 3200, channels: 3, background: '#aa3300' } })
    .jpeg({ quality: 100 })
    .toBuffer()
  const video = path.join(fixtures, 'v.mp4')
  // without ffmpeg it is a stand-in, which only the tests that never decode it use
  await makeTestClip(video)
  mp4 = await import('node:fs/promises').then(fs => fs.readFile(video))
  served = await onLoopback(
    http.createServer((req, res) => {
      const body: Record<string, [string, Buffer]> = {
        '/a.jpg': ['image/jpeg', jpeg],
        '/big.jpg': ['image/jpeg', bigJpeg],
        '/v.mp4': ['video/mp4', mp4],
        '/doc.pdf': ['application/pdf', Buffer.from('%PDF-1.4 tiny')],
        '/a.ogg': ['audio/ogg', Buffer.from('OggS....')],
      }
      const hit = body[req.url ?? '']
      if (!hit) {
        res.writeHead(404)
        res.end()
        return
      }
      res.writeHead(200, { 'content-type': hit[0] })
      res.end(hit[1])
    }),
  )
  base = served.url
})
afterAll(async () => {
  await served.close()
  await rm(fixtures, { recursive: true, force: true })
})

let tempDir: string
let deps: SendMediaDeps
const warnings: unknown[] = []
beforeEach(async () => {
  tempDir = await mkdtemp(path.join(os.tmpdir(), 'mc-temp-'))
  warnings.length = 0
  deps = {
    download: { maxBytes: 10_000_000, timeoutMs: 20_000, maxRedirects: 2, blockPrivate: false, tempDir },
    ffmpeg: defaultFfmpeg(),
    maxPixels: 100_000_000,
    logger: {
      warn: (obj: unknown) => {
        warnings.push(obj)
      },
    } as SendMediaDeps['logger'],
  }
})
afterEach(async () => {
  await rm(tempDir, { recursive: true, force: true })
})

const thumbWidth = async (b64: string) => (await sharp(Buffer.from(b64, 'base64')).metadata()).width

describe("a message's media", () => {
  it('text, location and contact have none', async () => {
    for (const content of [
      { type: 'text' as const, text: 'hi https://x.example' },
      { type: 'location' as const, location: { latitude: -23.5, longitude: -46.6 } },
      { type: 'contact' as const, contact: { name: 'Ana', phone: '5511999990000' } },
    ]) {
      const p = await prepareSendMedia(content, deps)
      expect([p.file, p.jpegThumbnail, p.compressed]).toEqual([undefined, undefined, undefined])
    }
    expect(await readdir(tempDir)).toEqual([])
  })

  it('image: downloaded file, thumbnail made from the image; dispose removes the file', async () => {
    const p = await prepareSendMedia(
      { type: 'image', image: { url: `${base}/a.jpg`, mimetype: 'image/jpeg' }, text: 'cap' },
      deps,
    )
    expect(p.file?.kind).toBe('image')
    expect((await stat(p.file!.file.path)).size).toBe(jpeg.length)
    expect(await thumbWidth(p.jpegThumbnail!)).toBe(72)
    await p.dispose()
    expect(await readdir(tempDir)).toEqual([])
  })

  it('image with a thumbnail URL that fails still sends with a thumbnail from the image', async () => {
    const p = await prepareSendMedia(
      { type: 'image', image: { url: `${base}/a.jpg`, mimetype: 'image/jpeg', thumbnail: `${base}/gone.jpg` } },
      deps,
    )
    expect(await thumbWidth(p.jpegThumbnail!)).toBe(72)
    expect(warnings).toHaveLength(1)
    await p.dispose()
    expect(await readdir(tempDir)).toEqual([])
  })

  ffmpegTests.it('video: an ffmpeg frame as thumbnail (not the default)', async () => {
    const p = await prepareSendMedia(
      { type: 'video', video: { url: `${base}/v.mp4`, mimetype: 'video/mp4', duration: 7 } },
      deps,
    )
    expect(Buffer.from(p.jpegThumbnail!, 'base64').equals(await defaultThumbnail())).toBe(false)
    expect(await thumbWidth(p.jpegThumbnail!)).toBe(72)
    expect(p.file?.kind).toBe('video')
    await p.dispose()
    expect(await readdir(tempDir)).toEqual([])
  })

  it('video with a thumbnail URL uses that image', async () => {
    const p = await prepareSendMedia(
      {
        type: 'video',
        video: { url: `${base}/v.mp4`, mimetype: 'video/mp4', duration: 1, thumbnail: `${base}/a.jpg` },
      },
      deps,
    )
    const thumb = Buffer.from(p.jpegThumbnail!, 'base64')
    const { data } = await sharp(thumb).raw().toBuffer({ resolveWithObject: true })
    const [r, g, b] = [data[0] ?? 0, data[1] ?? 0, data[2] ?? 0] // #3366cc = 51,102,204
    expect(Math.abs(r - 51) + Math.abs(g - 102) + Math.abs(b - 204)).toBeLessThan(30)
    await p.dispose()
  })

  it('audio and document: the file as downloaded, no preview', async () => {
    const a = await prepareSendMedia(
      { type: 'audio', audio: { url: `${base}/a.ogg`, mimetype: 'audio/ogg', duration: 3 } },
      deps,
    )
    expect([a.file?.kind, (await readFile(a.file!.file.path)).toString(), a.jpegThumbnail]).toEqual([
      'audio',
      'OggS....',
      undefined,
    ])
    await a.dispose()
    const d = await prepareSendMedia(
      {
        type: 'document',
        document: { url: `${base}/doc.pdf`, name: 'r.pdf', size: 999999, mimetype: 'application/pdf' },
        text: 'see',
      },
      deps,
    )
    expect([d.file?.kind, (await stat(d.file!.file.path)).size]).toEqual(['document', 13])
    await d.dispose()
    expect(await readdir(tempDir)).toEqual([])
  })

  it('a failed media download gives the spec error and leaves nothing behind', async () => {
    await expect(
      prepareSendMedia({ type: 'image', image: { url: `${base}/missing.jpg`, mimetype: 'image/jpeg' } }, deps),
    ).rejects.toThrow('error parser file from url 404 Not Found')
    expect(await readdir(tempDir)).toEqual([])
  })
})

describe("a status's media", () => {
  it('status image is recompressed to a JPEG buffer inside 1080x1920, and the download removed', async () => {
    const p = await prepareStatusMedia(
      { type: 'image', image: { url: `${base}/big.jpg`, mimetype: 'image/jpeg' }, text: 'hey' },
      deps,
    )
    expect(p.compressed!.length).toBeLessThan(bigJpeg.length)
    const meta = await sharp(p.compressed!).metadata()
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 1080, 1440])
    expect(p.file).toBeUndefined()
    await p.dispose()
    expect(await readdir(tempDir)).toEqual([])
  })
})

describe('the media slot', () => {
  /** An `inMediaSlot` that records when it was asked for and what the work in it returned. */
  const recordingSlot = () => {
    const asked: Array<{ downloadsDone: boolean; result?: unknown }> = []
    let downloadsDone = false
    return {
      asked,
      downloadsEnded: () => {
        downloadsDone = true
      },
      inMediaSlot: async <T>(work: () => Promise<T>): Promise<T> => {
        const call: { downloadsDone: boolean; result?: unknown } = { downloadsDone }
        asked.push(call)
        call.result = await work()
        return call.result as T
      },
    }
  }

  it('is asked for only once the media and its thumbnail URL are downloaded; the thumbnail is made in it', async () => {
    const slowThumbnail = await startTrickleServer()
    try {
      const slot = recordingSlot()
      const prepared = prepareSendMedia(
        { type: 'image', image: { url: `${base}/a.jpg`, mimetype: 'image/jpeg', thumbnail: slowThumbnail.url } },
        deps,
        { inMediaSlot: slot.inMediaSlot },
      )
      await slowThumbnail.requested // the media is on disk, its thumbnail URL is still coming
      await new Promise(resolve => setTimeout(resolve, 100))
      expect(slot.asked).toEqual([])
      slot.downloadsEnded()
      slowThumbnail.release() // 2 KB of zeros: not an image, so the preview is made from the photo
      const p = await prepared
      expect(slot.asked).toEqual([{ downloadsDone: true, result: p.jpegThumbnail }])
      await p.dispose()
    } finally {
      await slowThumbnail.close()
    }
  })

  it('a status image is recompressed and its thumbnail made in one turn; documents and audio need none here', async () => {
    const slot = recordingSlot()
    const status = await prepareStatusMedia(
      { type: 'image', image: { url: `${base}/big.jpg`, mimetype: 'image/jpeg' } },
      deps,
      { inMediaSlot: slot.inMediaSlot },
    )
    expect(slot.asked.map(call => call.result)).toEqual([
      { compressed: status.compressed, jpegThumbnail: status.jpegThumbnail },
    ])
    await status.dispose()
    for (const content of [
      {
        type: 'document' as const,
        document: { url: `${base}/doc.pdf`, mimetype: 'application/pdf', name: 'd.pdf', size: 13 },
      },
      { type: 'audio' as const, audio: { url: `${base}/a.ogg`, mimetype: 'audio/ogg', duration: 1 } },
    ]) {
      const p = await prepareSendMedia(content, deps, { inMediaSlot: slot.inMediaSlot })
      await p.dispose()
    }
    expect(slot.asked).toHaveLength(1) // their encryption and upload take it later, in the link
  })
})
