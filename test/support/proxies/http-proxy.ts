/**
 * @module test/support/proxies/http-proxy
 * A real HTTP proxy on loopback for the tests: CONNECT tunnels (what the platform WebSocket, uploads and https
 * downloads use) and forwarded plain-http requests (absolute URI, what an http:// download through an HTTP proxy
 * uses), with Basic `Proxy-Authorization` (407 without it). Its outgoing connections leave from `localAddress`
 * (127.0.0.3 by default), and it reaches loopback destinations only (403 otherwise). Killed and revived like the
 * SOCKS5 one (proxy-book.ts).
 */
import http from 'node:http'
import net from 'node:net'
import { isLoopbackTarget, ProxyBook } from './proxy-book.js'

export interface HttpProxyOptions {
  username?: string
  password?: string
  localAddress?: string
}

export class HttpProxy extends ProxyBook {
  readonly #options: HttpProxyOptions

  constructor(options: HttpProxyOptions = {}) {
    super(options.localAddress ?? '127.0.0.3')
    this.#options = options
  }

  url(): string {
    const { username, password } = this.#options
    const auth = username === undefined ? '' : `${encodeURIComponent(username)}:${encodeURIComponent(password ?? '')}@`
    return `http://${auth}127.0.0.1:${this.port}`
  }

  protected override serve(): void {}

  /** Whether the request carries the proxy's credentials (always, when it wants none). */
  #authorized(req: http.IncomingMessage): boolean {
    const { username, password } = this.#options
    if (username === undefined) return true
    const expected = `Basic ${Buffer.from(`${username}:${password ?? ''}`).toString('base64')}`
    if (req.headers['proxy-authorization'] === expected) return true
    this.authFailures++
    return false
  }

  protected override createServer(): net.Server {
    const server = http.createServer((req, res) => {
      if (!this.#authorized(req)) {
        res.writeHead(407, { 'proxy-authenticate': 'Basic realm="test"' }).end()
        return
      }
      const target = new URL(req.url ?? '')
      void isLoopbackTarget(target.hostname.replace(/^\[|\]$/g, '')).then(loopback => {
        if (!loopback || target.protocol !== 'http:') return void res.writeHead(403).end()
        this.targets.push(`${target.hostname}:${target.port || 80}`)
        const headers = { ...req.headers }
        delete headers['proxy-authorization']
        delete headers['proxy-connection']
        const upstream = http.request(
          {
            host: target.hostname,
            port: target.port || 80,
            path: `${target.pathname}${target.search}`,
            method: req.method,
            headers,
            localAddress: this.localAddress,
          },
          answer => {
            res.writeHead(answer.statusCode ?? 502, answer.headers)
            answer.pipe(res)
          },
        )
        upstream.on('error', () => res.writeHead(502).end())
        req.pipe(upstream)
      })
    })
    server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
      if (!this.#authorized(req)) {
        client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test"\r\n\r\n')
        return
      }
      const at = (req.url ?? '').lastIndexOf(':')
      const host = (req.url ?? '').slice(0, at).replace(/^\[|\]$/g, '')
      const port = Number((req.url ?? '').slice(at + 1))
      void isLoopbackTarget(host).then(loopback => {
        if (!loopback) return void client.end('HTTP/1.1 403 Forbidden\r\n\r\n')
        const target = net.connect({ host, port, localAddress: this.localAddress })
        target.once('error', () => client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n'))
        target.once('connect', () => {
          this.targets.push(`${host}:${port}`)
          client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
          if (head.length > 0) target.write(head)
          this.relay(client, target)
        })
      })
    })
    return server
  }
}
