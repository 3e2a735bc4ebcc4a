import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { downloadToTemp, type DownloadOptions } from '../../../src/media/download.js'
import { GatewayError } from '../../../src/protocol/errors.js'
import { onLoopback, type OnLoopback, refusedPort } from '../../support/loopback-server.js'

const payload = Buffer.from(Array.from({ length: 200_000 }, (_, i) => i % 251))
let served: OnLoopback<http.Server>
let base: string
const stalled = new Set<http.ServerResponse>()

beforeAll(async () => {
  served = await onLoopback(
    http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x')
      switch (url.pathname) {
        case '/file.bin':
          res.writeHead(200, { 'content-type': 'application/octet-stream' })
          res.end(payload)
          return
        case '/missing':
          res.writeHead(404)
          res.end('nope')
          return
        case '/broken':
          res.writeHead(500)
          res.end('boom')
          return
        case '/odd-reason':
          res.writeHead(404, 'Whatever Text')
          res.end()
          return
        case '/chunked-big': {
          // no content-length: the cap must be enforced while streaming
          res.writeHead(200)
          for (let i = 0; i < 20; i++) res.write(Buffer.alloc(10_000, 1))
          res.end()
          return
        }
        case '/stall':
          res.writeHead(200, { 'content-length': '1000' })
          res.write(Buffer.alloc(10))
          stalled.add(res)
          return
        case '/stall-headers':
          stalled.add(res)
          return
        case '/redirect': {
          const n = Number(url.searchParams.get('n') ?? '0')
          res.writeHead(302, { location: n > 0 ? `/redirect?n=${n - 1}` : '/file.bin' })
          res.end()
          return
        }
        default:
          res.writeHead(404)
          res.end()
      }
    }),
  )
  base = served.url
})

afterAll(async () => {
  for (const res of stalled) res.destroy()
  await served.close()
})

let tempDir: string
let options: DownloadOptions
beforeEach(async () => {
  tempDir = await mkdtemp(path.join(os.tmpdir(), 'dl-test-'))
  options = { maxBytes: 1_000_000, timeoutMs: 15_000, maxRedirects: 3, blockPrivate: false, tempDir }
})
afterEach(async () => {
  for (const res of stalled) res.destroy()
  stalled.clear()
  await rm(tempDir, { recursive: true, force: true })
})

const tempFiles = () => readdir(tempDir)

async function failure(url: string, opts: DownloadOptions = options): Promise<GatewayError> {
  const err = await downloadToTemp(url, opts).then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(err).toBeInstanceOf(GatewayError)
  expect((err as GatewayError).code).toBe('MEDIA_DOWNLOAD_FAILED')
  return err as GatewayError
}

describe('media download', () => {
  it('streams a 200 response to a temp file with the exact bytes, and dispose removes it', async () => {
    const file = await downloadToTemp(`${base}/file.bin`, options)
    expect(file.bytes).toBe(payload.length)
    expect(file.contentType).toBe('application/octet-stream')
    expect(path.dirname(file.path)).toBe(tempDir)
    expect((await readFile(file.path)).equals(payload)).toBe(true)
    await file.dispose()
    expect(await tempFiles()).toEqual([])
  })

  it('404 gives exactly the spec message', async () => {
    expect((await failure(`${base}/missing`)).message).toBe('error parser file from url 404 Not Found')
    expect(await tempFiles()).toEqual([])
  })

  it('500 gives the canonical reason phrase', async () => {
    expect((await failure(`${base}/broken`)).message).toBe('error parser file from url 500 Internal Server Error')
  })

  it('uses the canonical phrase, not the server-sent one', async () => {
    expect((await failure(`${base}/odd-reason`)).message).toBe('error parser file from url 404 Not Found')
  })

  it('refuses a declared length above the cap', async () => {
    const err = await failure(`${base}/file.bin`, { ...options, maxBytes: 1000 })
    expect(err.message).toBe('error parser file from url file larger than 1000 bytes')
    expect(await tempFiles()).toEqual([])
  })

  it('enforces the cap on a streamed body without length and removes the partial file', async () => {
    const err = await failure(`${base}/chunked-big`, { ...options, maxBytes: 50_000 })
    expect(err.message).toBe('error parser file from url file larger than 50000 bytes')
    expect(await tempFiles()).toEqual([])
  })

  it('times out a stalled body and removes the partial file', async () => {
    const err = await failure(`${base}/stall`, { ...options, timeoutMs: 500 })
    expect(err.message).toBe('error parser file from url timeout after 500 ms')
    expect(await tempFiles()).toEqual([])
  })

  it('times out a server that never answers', async () => {
    const err = await failure(`${base}/stall-headers`, { ...options, timeoutMs: 500 })
    expect(err.message).toBe('error parser file from url timeout after 500 ms')
  })

  it('follows redirects up to the cap exactly', async () => {
    const ok = await downloadToTemp(`${base}/redirect?n=2`, options) // 3 redirects, cap 3
    expect(ok.bytes).toBe(payload.length)
    await ok.dispose()
    const err = await failure(`${base}/redirect?n=3`, options) // 4 redirects
    expect(err.message).toBe('error parser file from url too many redirects')
    expect(await tempFiles()).toEqual([])
  })

  // which ranges are private is address-guard.test.ts's; here only addresses that stay on this machine if it broke
  it('refuses loopback and private addresses with a 400 naming the field when the guard is on', async () => {
    const blocked = { ...options, blockPrivate: true, urlField: 'image.url' }
    const port = served.port
    for (const url of [`${base}/file.bin`, `http://localhost:${port}/file.bin`, `http://127.0.0.2:${port}/file.bin`]) {
      const err = await downloadToTemp(url, blocked).then(
        () => undefined,
        (e: unknown) => e,
      )
      expect(err, url).toBeInstanceOf(GatewayError)
      expect((err as GatewayError).status).toBe(400)
      expect((err as GatewayError).message).toBe('image.url leads to a private or local address')
    }
    expect(await tempFiles()).toEqual([])
  })

  it('aborts when the caller signal fires and removes the partial file', async () => {
    const controller = new AbortController()
    const pending = downloadToTemp(`${base}/stall`, { ...options, signal: controller.signal })
    setTimeout(() => controller.abort(), 100)
    await expect(pending).rejects.toThrow('error parser file from url aborted')
    expect(await tempFiles()).toEqual([])
  })

  it('rejects non-http urls and garbage', async () => {
    expect((await failure('ftp://example.invalid/x')).message).toBe(
      'error parser file from url unsupported protocol ftp:',
    )
    expect((await failure('not a url')).message).toBe('error parser file from url invalid url')
  })

  it('reports a refused connection with the network error', async () => {
    const port = await refusedPort()
    const err = await failure(`http://127.0.0.1:${port}/x`)
    expect(err.message).toMatch(/^error parser file from url .*ECONNREFUSED/)
    expect(await tempFiles()).toEqual([])
  })
})
