/**
 * @module sandbox/media-host
 * The HTTPS media host: uploads (`POST /mms/<type>/<encSha256>?auth&token`, body = ciphertext‖mac10), downloads
 * (`GET <direct_path>`) and profile pictures (`GET /pp/<key>.jpg`). TLS under the sandbox's own CA. Each request's
 * source address is tallied in GET /stats (`uploadsByAddress`, `downloadsByAddress`).
 */
import https from 'node:https'
import type { AddressInfo } from 'node:net'
import type { Logger } from 'pino'
import sharp from 'sharp'
import type { TlsMaterial } from './certs.js'
import type { MediaStore } from './media-store.js'
import { IDLE_CONNECTION_MS } from './keep-alive.js'
import { clientAddress } from './client-address.js'
import type { SandboxStats } from './stats.js'

let pictureCache: Promise<Buffer> | undefined
/** A small generated JPEG served for every profile picture. */
const pictureJpeg = (): Promise<Buffer> =>
  (pictureCache ??= sharp({ create: { width: 96, height: 96, channels: 3, background: { r: 7, g: 94, b: 84 } } })
    .jpeg()
    .toBuffer())

export interface MediaHost {
  port: number
  close(): Promise<void>
}

export async function startMediaHost(
  tls: TlsMaterial,
  store: MediaStore,
  logger: Logger,
  host: string,
  port: number,
  stats?: SandboxStats,
): Promise<MediaHost> {
  const server = https.createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    const url = new URL(req.url ?? '/', 'https://sandbox')
    // GET /stats `uploadsByAddress` / `downloadsByAddress`: where each came from (behind a proxy: its address).
    // Downloads include the sandbox's own phones fetching what they received.
    stats?.tally(req.method === 'POST' ? 'uploadsByAddress' : 'downloadsByAddress', clientAddress(req.socket))
    const send = (status: number, body: string | Buffer, type = 'application/json'): void => {
      res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) })
      res.end(body)
    }
    if (req.method === 'POST' && (url.pathname.startsWith('/mms/') || url.pathname.startsWith('/newsletter/'))) {
      const chunks: Buffer[] = []
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', () => {
        const kind = url.pathname.split('/')[2] ?? 'document'
        const body = Buffer.concat(chunks)
        const addr = server.address() as AddressInfo
        if (url.pathname.startsWith('/newsletter/')) {
          // Channel media: plain bytes, referenced later by `media_id` = handle.
          const stored = store.putChannelMedia(kind.replace(/^newsletter-/, ''), body)
          logger.debug({ path: stored.path, size: body.length }, 'channel media uploaded')
          send(
            200,
            JSON.stringify({
              url: `https://127.0.0.1:${addr.port}${stored.path}`,
              direct_path: stored.path,
              handle: stored.handle,
            }),
          )
          return
        }
        const stored = store.put(kind, body)
        logger.debug({ path: stored.path, size: stored.body.length }, 'media uploaded')
        send(200, JSON.stringify({ url: `https://127.0.0.1:${addr.port}${stored.path}`, direct_path: stored.path }))
      })
      return
    }
    if (req.method === 'GET' && url.pathname.startsWith('/pp/')) {
      pictureJpeg().then(
        jpeg => send(200, jpeg, 'image/jpeg'),
        () => send(500, '{}'),
      )
      return
    }
    if (req.method === 'GET') {
      const stored = store.get(url.pathname)
      if (stored) return send(200, stored.body, 'application/octet-stream')
    }
    send(404, JSON.stringify({ error: 'not found' }))
  })
  server.keepAliveTimeout = IDLE_CONNECTION_MS
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => resolve())
  })
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>(resolve => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
