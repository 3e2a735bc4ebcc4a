/**
 * @module media/download
 * The gateway downloads media itself, before Baileys sees it (BAILEYS-MAPPING §2.2): Baileys' own fetch has no
 * timeout, no size cap and loses the status text. This streams a URL to a temp file with a byte cap, one overall
 * timeout, an exact redirect cap (redirects are followed by hand) and the SSRF guard (`address-guard.ts`), applied
 * to the first URL and to every redirect hop, on the address actually connected to. A refused address is
 * `400 <field> leads to a private or local address` (the client's fault, SECURITY.md); every other failure is
 * MEDIA_DOWNLOAD_FAILED, i.e. `500 error parser file from url <detail>`:
 *   - HTTP status ≥ 300 (not a redirect): `404 Not Found` (canonical reason phrase from `STATUS_CODES`)
 *   - `timeout after 60000 ms`, `file larger than N bytes`, `too many redirects`, `invalid url`,
 *     `unsupported protocol ftp:` (a redirect to it), `aborted`, else the network error's message.
 * The temp file is removed on every failure; on success the caller owns it and must call `dispose()`.
 */
import { createWriteStream } from 'node:fs'
import http, { STATUS_CODES } from 'node:http'
import https from 'node:https'
import tls from 'node:tls'
import { Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { GatewayError } from '../protocol/errors.js'
import { createAddressGuard, defaultAddressGuard, PrivateAddressError, type AddressGuard } from './address-guard.js'
import { MediaDownloadError, type MediaFailureReason } from './download-error.js'
import { createMediaResolver } from './media-resolver.js'
import { PRIVATE_NEW_FILE, removeQuietly, tempFilePath } from './temp-dir.js'
import { forwardAgent, tunnelAgent } from '../proxy/proxy-agent.js'
import type { ProxyConnection } from '../proxy/proxy-connection.js'
import type { MediaSettings } from './settings.js'

export interface DownloadOptions {
  maxBytes: number
  timeoutMs: number
  maxRedirects: number
  /** The SSRF guard: refuse loopback, private, link-local, metadata... addresses (MEDIA_ALLOW_PRIVATE_URLS=false). */
  blockPrivate: boolean
  /** How the guard resolves and judges addresses; tests inject a stub DNS. Default: system DNS, every private range. */
  guard?: AddressGuard
  /** The request field the URL came from (`image.url`, `video.thumbnail`), named in the 400 of a refused URL. */
  urlField?: string
  /** Folder for the temp file; defaults to the per-process media folder. */
  tempDir?: string
  /** Extra CA (PEM) trusted for https URLs, e.g. the sandbox's. */
  ca?: string
  /**
   * The session's proxy, when SESSION_PROXY_MEDIA_DOWNLOADS sends downloads through it: asked at every hop (a
   * refused proxy throws). The host name of the URL is then resolved by the proxy (socks5h, http), except with
   * `socks5`, where the guard's look-up resolves and judges it here; IP literals are judged here either way.
   */
  proxy?: () => ProxyConnection
  /** Aborts the download (client went away); the temp file is removed. */
  signal?: AbortSignal
  /** Per-type caps (MEDIA_MAX_BYTES_IMAGE...) for the caller to apply to the main media of a message. */
  maxBytesPerKind?: Record<MediaKind, number>
  /** The cap for the caller to apply to a thumbnail URL (MEDIA_MAX_BYTES_THUMBNAIL): it only becomes a 72 px preview. */
  maxThumbnailBytes?: number
  /** The error for a file over `maxBytes`; default `error parser file from url file larger than N bytes`. */
  tooLarge?: (maxBytes: number) => GatewayError
}

export type MediaKind = 'image' | 'video' | 'audio' | 'document'

export interface DownloadedFile {
  path: string
  bytes: number
  /** The server's Content-Type, if any. */
  contentType: string | undefined
  dispose(): Promise<void>
}

/** Internal: a failure whose message is the `<detail>` part of the client-facing error (unless `clientError` is
 * given), and why it failed. */
class DownloadFailure extends Error {
  constructor(
    detail: string,
    readonly reason: MediaFailureReason,
    readonly clientError?: GatewayError,
  ) {
    super(detail)
  }
}

/** One guard (and so one resolver, with its cap on look-ups in flight) per thread for the gateway's settings. */
let threadGuard: { key: string; guard: AddressGuard } | undefined
function settingsGuard(
  settings: Pick<MediaSettings, 'MEDIA_DNS_SERVERS' | 'MEDIA_DNS_TIMEOUT_MS' | 'MEDIA_DNS_MAX_IN_FLIGHT'>,
): AddressGuard {
  const { MEDIA_DNS_SERVERS: servers, MEDIA_DNS_TIMEOUT_MS: timeoutMs, MEDIA_DNS_MAX_IN_FLIGHT: maxInFlight } = settings
  const key = JSON.stringify([servers, timeoutMs, maxInFlight])
  if (threadGuard?.key !== key) {
    const resolve = createMediaResolver({ servers, timeoutMs, maxInFlight })
    threadGuard = { key, guard: createAddressGuard({ resolve }) }
  }
  return threadGuard.guard
}

/** DownloadOptions from media's settings. */
export const downloadOptionsFromSettings = (settings: MediaSettings): DownloadOptions => ({
  guard: settingsGuard(settings),
  maxBytes: settings.MEDIA_MAX_BYTES,
  maxBytesPerKind: {
    image: settings.MEDIA_MAX_BYTES_IMAGE,
    video: settings.MEDIA_MAX_BYTES_VIDEO,
    audio: settings.MEDIA_MAX_BYTES_AUDIO,
    document: settings.MEDIA_MAX_BYTES_DOCUMENT,
  },
  maxThumbnailBytes: settings.MEDIA_MAX_BYTES_THUMBNAIL,
  timeoutMs: settings.MEDIA_TIMEOUT_MS,
  maxRedirects: settings.MEDIA_MAX_REDIRECTS,
  blockPrivate: !settings.MEDIA_ALLOW_PRIVATE_URLS,
})

/** Streams `url` to a temp file. Throws a MediaDownloadError (MEDIA_DOWNLOAD_FAILED, PRIVATE_ADDRESS, or the
 * `tooLarge` error); never leaves a file behind on failure. */
export async function downloadToTemp(url: string, options: DownloadOptions): Promise<DownloadedFile> {
  const file = await tempFilePath(options.tempDir)
  const controller = new AbortController()
  let timedOut = false
  const timer = setTimeout(() => {
    timedOut = true
    controller.abort()
  }, options.timeoutMs)
  const onAbort = () => controller.abort()
  options.signal?.addEventListener('abort', onAbort, { once: true })
  try {
    if (options.signal?.aborted) throw new DownloadFailure('aborted', 'aborted')
    const result = await fetchFollowingRedirects(url, file, options, controller.signal)
    return { path: file, bytes: result.bytes, contentType: result.contentType, dispose: () => removeQuietly(file) }
  } catch (err) {
    await removeQuietly(file)
    if (timedOut) throw new MediaDownloadError(downloadFailed(`timeout after ${options.timeoutMs} ms`), 'timeout')
    if (options.signal?.aborted) throw new MediaDownloadError(downloadFailed('aborted'), 'aborted')
    throw toGatewayError(err, options.urlField)
  } finally {
    clearTimeout(timer)
    options.signal?.removeEventListener('abort', onAbort)
  }
}

const downloadFailed = (detail: string) => new GatewayError('MEDIA_DOWNLOAD_FAILED', { detail })

function toGatewayError(err: unknown, urlField: string | undefined): MediaDownloadError {
  if (err instanceof MediaDownloadError) return err
  if (err instanceof PrivateAddressError || (err as { cause?: unknown }).cause instanceof PrivateAddressError) {
    return new MediaDownloadError(
      new GatewayError('PRIVATE_ADDRESS', { path: urlField ?? 'media url' }),
      'private_address',
    )
  }
  if (err instanceof DownloadFailure)
    return new MediaDownloadError(err.clientError ?? downloadFailed(err.message), err.reason)
  return new MediaDownloadError(
    downloadFailed(err instanceof Error && err.message ? err.message : String(err)),
    'network',
  )
}

async function fetchFollowingRedirects(startUrl: string, file: string, options: DownloadOptions, signal: AbortSignal) {
  const guard = options.guard ?? defaultAddressGuard
  let current = startUrl
  for (let redirects = 0; ; redirects++) {
    let parsed: URL
    try {
      parsed = new URL(current)
    } catch {
      throw new DownloadFailure('invalid url', 'bad_url')
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      throw new DownloadFailure(`unsupported protocol ${parsed.protocol}`, 'bad_url')
    }
    // An IP literal is connected to without a lookup: judge it here (URL parsing made every IPv4 spelling dotted).
    const host = parsed.hostname.replace(/^\[|\]$/g, '')
    if (options.blockPrivate && guard.refusesHost(host)) throw new PrivateAddressError(host)
    const res = await request(parsed, options, guard, signal)
    const status = res.statusCode ?? 0
    if (status >= 300 && status < 400 && res.headers.location) {
      res.resume()
      if (redirects >= options.maxRedirects) throw new DownloadFailure('too many redirects', 'bad_url')
      current = new URL(res.headers.location, parsed).toString()
      continue
    }
    if (status < 200 || status >= 300) {
      res.resume()
      throw new DownloadFailure(`${status} ${STATUS_CODES[status] ?? res.statusMessage ?? ''}`.trim(), 'http_status')
    }
    const declared = Number(res.headers['content-length'])
    if (Number.isFinite(declared) && declared > options.maxBytes) {
      res.destroy()
      throw tooLarge(options)
    }
    let bytes = 0
    // 64 KB pieces from a slow origin would each cost a file write (a libuv pool hop and a wake-up): hold them into
    // 1 MB writes (one copy of 1 MB, cheap beside the crypto)
    let held: Buffer[] = []
    let heldBytes = 0
    const counter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        bytes += chunk.length
        if (bytes > options.maxBytes) return done(tooLarge(options))
        held.push(chunk)
        heldBytes += chunk.length
        if (heldBytes < 1 << 20) return done()
        const out = Buffer.concat(held, heldBytes)
        held = []
        heldBytes = 0
        done(null, out)
      },
      flush(done) {
        done(null, heldBytes ? Buffer.concat(held, heldBytes) : undefined)
      },
    })
    await pipeline(res, counter, createWriteStream(file, PRIVATE_NEW_FILE), { signal })
    return { bytes, contentType: res.headers['content-type'] }
  }
}

function tooLarge(options: DownloadOptions): DownloadFailure {
  return new DownloadFailure(
    `file larger than ${options.maxBytes} bytes`,
    'too_large',
    options.tooLarge?.(options.maxBytes),
  )
}

function request(
  url: URL,
  options: DownloadOptions,
  guard: AddressGuard,
  signal: AbortSignal,
): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const lib = url.protocol === 'https:' ? https : http
    const via = options.proxy?.()
    const req = lib.get(
      url,
      {
        signal,
        headers: { 'user-agent': 'messaging-gateway', accept: '*/*' },
        // A fresh connection per hop, resolved by the guard: no pooled socket skips the check. Through the proxy, a
        // fresh agent per hop: https is tunnelled, plain http forwarded by an HTTP proxy.
        agent: via ? (url.protocol === 'https:' ? tunnelAgent : forwardAgent)(via.url, via.options) : false,
        // Every host name is resolved by the guard's resolver (c-ares, never the thread pool), and judged when on.
        lookup: options.blockPrivate ? guard.lookup : guard.lookupAny,
        ...(url.protocol === 'https:' && options.ca ? { ca: [...tls.rootCertificates, options.ca] } : {}),
      },
      resolve,
    )
    req.on('error', reject)
  })
}
