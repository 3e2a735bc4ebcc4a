/**
 * @module test/support/proxies/proxy-book
 * What the tests' proxies share: a loopback server on a port of its own that can be killed mid-session (`close()`:
 * the server and every relayed connection) and brought back on the same port (`listen()`), byte relaying between a
 * client and its target, and the book of what it did (connections, targets reached, failed logins). Targets are
 * loopback only: a test proxy never carries a test's traffic anywhere else.
 */
import dns from 'node:dns/promises'
import net from 'node:net'
import { once } from 'node:events'

/** True when every address `host` names is loopback (127.0.0.0/8, ::1). */
export async function isLoopbackTarget(host: string): Promise<boolean> {
  const addresses = net.isIP(host)
    ? [host]
    : (await dns.lookup(host, { all: true }).catch(() => [])).map(a => a.address)
  return addresses.length > 0 && addresses.every(a => a === '::1' || /^127\./.test(a) || /^::ffff:127\./.test(a))
}

export abstract class ProxyBook {
  /** Client connections accepted. */
  connections = 0
  /** Failed logins (wrong or missing credentials). */
  authFailures = 0
  /** `host:port` of every target reached, in order. */
  readonly targets: string[] = []
  port = 0
  readonly #sockets = new Set<net.Socket>()
  #server: net.Server | undefined

  constructor(readonly localAddress: string) {}

  /** Handles one client connection. */
  protected abstract serve(client: net.Socket): void

  /** A server for `serve` to sit on (a plain TCP server; the HTTP proxy brings its own). */
  protected createServer(): net.Server {
    return net.createServer(client => this.serve(client))
  }

  /** Listens on 127.0.0.1 (the same port again after `close()`). */
  async listen(): Promise<this> {
    const server = this.createServer()
    server.on('connection', (socket: net.Socket) => {
      this.connections++
      this.track(socket)
    })
    server.listen(this.port, '127.0.0.1')
    await once(server, 'listening')
    this.port = (server.address() as net.AddressInfo).port
    this.#server = server
    return this
  }

  /** Dies: stops listening and cuts every connection it relays. */
  async close(): Promise<void> {
    const server = this.#server
    this.#server = undefined
    for (const socket of this.#sockets) socket.destroy()
    if (server) await new Promise<void>(resolve => server.close(() => resolve()))
  }

  protected track(socket: net.Socket): void {
    this.#sockets.add(socket)
    socket.once('close', () => this.#sockets.delete(socket))
    socket.on('error', () => socket.destroy())
  }

  /** Relays bytes both ways until either side ends. */
  protected relay(client: net.Socket, target: net.Socket): void {
    this.track(target)
    target.on('close', () => client.destroy())
    client.on('close', () => target.destroy())
    client.pipe(target)
    target.pipe(client)
    client.resume()
  }
}
