/**
 * @module test/support/fakes/trickle-server
 * A loopback HTTP server whose one file trickles: it sends the headers and a first chunk at once, then holds the
 * rest until the test calls `release()`. A send that downloads it is "in progress" for as long as the test wants,
 * with no timing involved.
 */
import http from 'node:http'
import { onLoopback } from '../loopback-server.js'

export interface TrickleServer {
  url: string
  /** Resolves when a client started downloading. */
  requested: Promise<void>
  release(): void
  close(): Promise<void>
}

export async function startTrickleServer(): Promise<TrickleServer> {
  let release!: () => void
  const released = new Promise<void>(resolve => {
    release = resolve
  })
  let onRequest!: () => void
  const requested = new Promise<void>(resolve => {
    onRequest = resolve
  })
  const served = await onLoopback(
    http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': '2048' })
      res.write(Buffer.alloc(1024))
      onRequest()
      void released.then(() => res.end(Buffer.alloc(1024)))
    }),
  )
  return {
    url: `${served.url}/slow.png`,
    requested,
    release,
    close: () => {
      release()
      return served.close()
    },
  }
}
