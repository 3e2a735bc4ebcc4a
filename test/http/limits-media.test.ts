/**
 * Per-type media caps (MEDIA_MAX_BYTES_IMAGE/VIDEO/AUDIO/DOCUMENT), applied while downloading: a file over its
 * type's cap is a 400 naming the type and the cap (declared length or streamed), nothing is left on disk, a file of
 * another type under its own cap passes, and MEDIA_MAX_BYTES still bounds every type.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config.js'
import { downloadOptionsFromConfig } from '../../src/media/download.js'
import { prepareMessageContent, prepareStatusContent, type PrepareDeps } from '../../src/platform/message-content.js'
import { ERROR_STATUS, GatewayError } from '../../src/protocol/errors.js'

const FILE = Buffer.alloc(3_000, 7)
let server: http.Server
let base: string

beforeAll(async () => {
  server = http.createServer((req, res) => {
    // /declared sends a Content-Length, /streamed does not (the cap must hold while streaming).
    if (req.url?.startsWith('/declared')) res.writeHead(200, { 'content-length': FILE.length })
    else res.writeHead(200)
    res.end(FILE)
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  server.closeAllConnections()
  await new Promise<void>(resolve => server.close(() => resolve()))
})

let tempDir: string
const depsWith = (env: Record<string, string>): PrepareDeps => ({
  download: { ...downloadOptionsFromConfig(loadConfig({ MEDIA_ALLOW_PRIVATE_URLS: 'true', ...env })), tempDir },
  logger: { warn: () => undefined } as unknown as PrepareDeps['logger'],
})
beforeEach(async () => { tempDir = await mkdtemp(path.join(os.tmpdir(), 'limits-media-')) })
afterEach(async () => { await rm(tempDir, { recursive: true, force: true }) })

async function failure(work: Promise<unknown>): Promise<GatewayError> {
  const err = await work.then(() => undefined, (e: unknown) => e)
  expect(err).toBeInstanceOf(GatewayError)
  return err as GatewayError
}

const caps = { MEDIA_MAX_BYTES_AUDIO: '1000', MEDIA_MAX_BYTES_DOCUMENT: '2000', MEDIA_MAX_BYTES_IMAGE: '100000' }

describe('per-type media caps', () => {
  it.each(['declared', 'streamed'])('an audio over its cap (%s length) is a 400 naming the cap', async how => {
    const err = await failure(prepareMessageContent(
      { type: 'audio', audio: { url: `${base}/${how}.ogg`, mimetype: 'audio/ogg', duration: 2 } }, depsWith(caps)))
    expect(err.code).toBe('MEDIA_TOO_LARGE')
    expect(ERROR_STATUS[err.code]).toBe(400)
    expect(err.message).toBe('audio is larger than the limit of 1000 bytes')
    expect(await readdir(tempDir)).toEqual([]) // the partial file is gone
  })

  it('applies each type its own cap', async () => {
    const doc = await failure(prepareMessageContent({ type: 'document',
      document: { url: `${base}/streamed.pdf`, name: 'a.pdf', size: 3000, mimetype: 'application/pdf' } }, depsWith(caps)))
    expect(doc.message).toBe('document is larger than the limit of 2000 bytes')
    const fine = await prepareMessageContent({ type: 'document',
      document: { url: `${base}/streamed.pdf`, name: 'a.pdf', size: 3000, mimetype: 'application/pdf' } },
    depsWith({ ...caps, MEDIA_MAX_BYTES_DOCUMENT: '3000' }))
    expect(fine.media?.file.bytes).toBe(3000)
    await fine.dispose()
  })

  it('caps a status image like a message image', async () => {
    const err = await failure(prepareStatusContent(
      { type: 'image', image: { url: `${base}/declared.jpg`, mimetype: 'image/jpeg' } },
      depsWith({ MEDIA_MAX_BYTES_IMAGE: '2999' })))
    expect(err.message).toBe('image is larger than the limit of 2999 bytes')
  })

  it('keeps MEDIA_MAX_BYTES as the bound for every type', async () => {
    const err = await failure(prepareMessageContent(
      { type: 'audio', audio: { url: `${base}/streamed.ogg`, mimetype: 'audio/ogg', duration: 2 } },
      depsWith({ MEDIA_MAX_BYTES: '500' })))
    expect(err.message).toBe('audio is larger than the limit of 500 bytes')
  })

  it('has defaults that fit the platform: 16 MiB images and audio, 64 MiB video and documents', () => {
    const c = loadConfig({})
    expect([c.MEDIA_MAX_BYTES_IMAGE, c.MEDIA_MAX_BYTES_AUDIO, c.MEDIA_MAX_BYTES_VIDEO, c.MEDIA_MAX_BYTES_DOCUMENT])
      .toEqual([16, 16, 64, 64].map(m => m * 1024 * 1024))
  })
})
