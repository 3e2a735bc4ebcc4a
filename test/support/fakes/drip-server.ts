/**
 * @module test/support/fakes/drip-server
 * A loopback origin that drips: it answers at once with headers announcing `size` bytes, then sends `bytesPerSecond`
 * of them a second, for as long as the client stays. A download from it makes progress and never ends, which is
 * what a hostile or broken media host does to hold a downloader. It counts the connections open, so a test can tell
 * that every download is still going, and that each ended (the gateway hung up).
 */
import http from 'node:http'
import { onLoopback } from '../loopback-server.js'

export interface DripServer {
  url: string
  /** Connections being dripped into right now. */
  readonly open: number
  /** Requests seen in all. */
  readonly requests: number
  close(): Promise<void>
}

export async function startDripServer({ bytesPerSecond = 8, size = 1024 * 1024 } = {}): Promise<DripServer> {
  let open = 0
  let requests = 0
  const served = await onLoopback(
    http.createServer((req, res) => {
      requests++
      open++
      res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': String(size) })
      res.write(Buffer.alloc(bytesPerSecond))
      const drip = setInterval(() => res.write(Buffer.alloc(bytesPerSecond)), 1000)
      req.socket.on('close', () => {
        clearInterval(drip)
        open--
      })
    }),
  )
  return {
    url: `${served.url}/drip.jpg`,
    get open() {
      return open
    },
    get requests() {
      return requests
    },
    close: served.close,
  }
}
