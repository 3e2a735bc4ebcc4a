/**
 * The observe hooks (src/metrics/observe.ts): acks, media downloads and their failures counted by their typed error,
 * never by the message a client reads.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { downloadToTemp, type DownloadOptions } from '../../../src/media/download.js'
import { GatewayError } from '../../../src/protocol/errors.js'
import { observeAck, observeMediaDownload } from '../../../src/metrics/observe.js'
import { takeThreadCounts } from '../../../src/metrics/thread-counters.js'
import { onLoopback } from '../../support/loopback-server.js'

// the thread's counters are module state: each test starts from none
afterEach(() => {
  takeThreadCounts()
})

describe('observe hooks', () => {
  it('count ok acks, error acks with their code and timeouts, and pass the outcome through', async () => {
    await expect(observeAck(Promise.resolve('node'))).resolves.toBe('node')
    const rejected = new GatewayError('PLATFORM_REJECTED', { platformCode: '463' })
    await expect(observeAck(Promise.reject(rejected))).rejects.toBe(rejected)
    await expect(observeAck(Promise.reject(new GatewayError('PLATFORM_TIMEOUT')))).rejects.toThrow()
    await expect(observeAck(Promise.reject(new GatewayError('SESSION_NOT_CONNECTED')))).rejects.toThrow()
    expect(takeThreadCounts()).toEqual([
      { key: 'acks', labels: { result: 'ok' }, value: 1 },
      { key: 'acks', labels: { result: 'error' }, value: 1 },
      { key: 'errorAcks', labels: { code: '463' }, value: 1 },
      { key: 'acks', labels: { result: 'timeout' }, value: 1 },
    ])
  })

  it('count media bytes and a fixed failure reason', async () => {
    await observeMediaDownload(Promise.resolve({ bytes: 321 }))
    await expect(observeMediaDownload(Promise.reject(new Error('something else entirely')))).rejects.toThrow()
    expect(takeThreadCounts()).toEqual([
      { key: 'mediaDownloads', labels: { result: 'ok' }, value: 1 },
      { key: 'mediaBytes', labels: {}, value: 321 },
      { key: 'mediaDownloads', labels: { result: 'network' }, value: 1 },
    ])
  })

  it('classify real download failures by their typed error, whatever the client-facing message says', async () => {
    const { url: base, close } = await onLoopback(
      http.createServer((req, res) => {
        if (req.url === '/missing') {
          res.writeHead(404)
          res.end()
          return
        }
        if (req.url === '/stall') return // never answers: the timeout
        res.writeHead(200)
        res.end(Buffer.alloc(3_000, 1))
      }),
    )
    const tempDir = await mkdtemp(path.join(os.tmpdir(), 'telemetry-media-'))
    const options: DownloadOptions = {
      maxBytes: 10_000,
      timeoutMs: 5_000,
      maxRedirects: 1,
      blockPrivate: false,
      tempDir,
    }
    const attempts: Array<[string, () => Promise<{ bytes: number }>, string]> = [
      // the SSRF guard's 400 (`image.url leads to a private or local address`)
      [
        'private_address',
        () => downloadToTemp(`${base}/file`, { ...options, blockPrivate: true, urlField: 'image.url' }),
        'image.url leads to a private or local address',
      ],
      // a per-type cap's 400 (`image is larger than the limit of 1000 bytes`)
      [
        'too_large',
        () =>
          downloadToTemp(`${base}/file`, {
            ...options,
            maxBytes: 1_000,
            tooLarge: max => new GatewayError('MEDIA_TOO_LARGE', { kind: 'image', max }),
          }),
        'image is larger than the limit of 1000 bytes',
      ],
      [
        'too_large',
        () => downloadToTemp(`${base}/file`, { ...options, maxBytes: 1_000 }),
        'error parser file from url file larger than 1000 bytes',
      ],
      ['http_status', () => downloadToTemp(`${base}/missing`, options), 'error parser file from url 404 Not Found'],
      [
        'timeout',
        () => downloadToTemp(`${base}/stall`, { ...options, timeoutMs: 200 }),
        'error parser file from url timeout after 200 ms',
      ],
      [
        'bad_url',
        () => downloadToTemp('ftp://example.com/x', options),
        'error parser file from url unsupported protocol ftp:',
      ],
      [
        'aborted',
        () => downloadToTemp(`${base}/stall`, { ...options, signal: AbortSignal.abort() }),
        'error parser file from url aborted',
      ],
      [
        'network',
        () => downloadToTemp('http://127.0.0.1:1/x', options),
        'error parser file from url connect ECONNREFUSED 127.0.0.1:1',
      ],
    ]
    try {
      for (const [reason, download, message] of attempts) {
        await expect(observeMediaDownload(download()), reason).rejects.toThrow(message)
        expect(takeThreadCounts(), message).toEqual([{ key: 'mediaDownloads', labels: { result: reason }, value: 1 }])
      }
    } finally {
      await close()
      await rm(tempDir, { recursive: true, force: true })
    }
  })
})
