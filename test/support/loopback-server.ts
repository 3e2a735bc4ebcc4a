/**
 * @module test/support/loopback-server
 * A test's own server (HTTP, HTTPS, express or raw TCP) on a free loopback port: its port, its URL and a `close`
 * that ends the connections still open (a kept-alive client, a request the server holds on purpose), so a test
 * file's afterAll never waits on them; fixed files served at a URL (`serveFiles`). Tests send traffic to loopback only.
 *
 * @example
 * const served = await onLoopback(http.createServer((_req, res) => res.end('ok')))
 * await fetch(`${served.url}/x`)
 * await served.close()
 */
import { once } from 'node:events'
import http from 'node:http'
import net, { type AddressInfo, type Server, type Socket } from 'node:net'
import tls from 'node:tls'

export interface OnLoopback<S extends Server> {
  server: S
  port: number
  /** `http://127.0.0.1:<port>`, `https://` for a TLS server. */
  url: string
  /** Stops listening and destroys every connection still open; resolves once the server is closed. */
  close(): Promise<void>
}

/** `server` listening on 127.0.0.1, on a port the system picks. */
export async function onLoopback<S extends Server>(server: S): Promise<OnLoopback<S>> {
  const open = new Set<Socket>()
  server.on('connection', (socket: Socket) => {
    open.add(socket)
    socket.once('close', () => open.delete(socket))
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  return {
    server,
    port,
    url: `${server instanceof tls.Server ? 'https' : 'http'}://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>(resolve => {
        server.close(() => resolve())
        for (const socket of open) socket.destroy()
      }),
  }
}

/** Fixed files by path (`{ '/a.jpg': { body, type } }`) on loopback, 404 for any other path: media at a URL. */
export function serveFiles(files: Record<string, { body: Buffer; type: string }>): Promise<OnLoopback<http.Server>> {
  return onLoopback(
    http.createServer((req, res) => {
      const file = files[req.url ?? '']
      if (!file) res.writeHead(404).end('missing')
      else res.writeHead(200, { 'content-type': file.type, 'content-length': file.body.length }).end(file.body)
    }),
  )
}

/** A loopback port that was free a moment ago and has nothing listening on it: a connection to it is refused. */
export async function refusedPort(): Promise<number> {
  const { port, close } = await onLoopback(net.createServer())
  await close()
  return port
}
