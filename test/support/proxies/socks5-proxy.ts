/**
 * @module test/support/proxies/socks5-proxy
 * A real SOCKS5 proxy on loopback for the tests (RFC 1928 CONNECT, RFC 1929 username/password): it relays bytes
 * both ways, and its outgoing connections leave from `localAddress` (127.0.0.2 by default), so the sandbox can tell
 * what came through it from what went around it. It connects only to loopback destinations (a test must never
 * reach anything else) and refuses the rest as "not allowed by ruleset". `close()` kills it mid-session (every
 * relayed connection cut), `listen()` brings it back on the same port.
 */
import net from 'node:net'
import { once } from 'node:events'
import { isLoopbackTarget, ProxyBook } from './proxy-book.js'

export interface Socks5ProxyOptions {
  /** Required credentials; unset = no authentication. */
  username?: string
  password?: string
  /** Where its outgoing connections leave from. */
  localAddress?: string
}

const REPLY = { ok: 0, failure: 1, notAllowed: 2, refused: 5, badCommand: 7 } as const

/** Reads exactly `n` bytes from the socket's stream, across chunks. */
class Reader {
  #buffer = Buffer.alloc(0)
  #waiting: { n: number; resolve: (b: Buffer) => void } | undefined
  readonly #onData = (chunk: Buffer) => {
    this.#buffer = Buffer.concat([this.#buffer, chunk])
    this.#deliver()
  }
  constructor(private readonly socket: net.Socket) {
    socket.on('data', this.#onData)
  }
  read(n: number): Promise<Buffer> {
    return new Promise(resolve => {
      this.#waiting = { n, resolve }
      this.#deliver()
    })
  }
  /** Stops reading; returns what arrived beyond the handshake (the client's first bytes for the target). */
  detach(): Buffer {
    this.socket.off('data', this.#onData)
    this.socket.pause()
    const rest = this.#buffer
    this.#buffer = Buffer.alloc(0)
    return rest
  }
  #deliver(): void {
    const waiting = this.#waiting
    if (!waiting || this.#buffer.length < waiting.n) return
    this.#waiting = undefined
    const out = this.#buffer.subarray(0, waiting.n)
    this.#buffer = this.#buffer.subarray(waiting.n)
    waiting.resolve(out)
  }
}

export class Socks5Proxy extends ProxyBook {
  readonly #options: Socks5ProxyOptions

  constructor(options: Socks5ProxyOptions = {}) {
    super(options.localAddress ?? '127.0.0.2')
    this.#options = options
  }

  /** `socks5://user:pass@127.0.0.1:<port>` (or `socks5h://` with `scheme`). */
  url(scheme: 'socks5' | 'socks5h' = 'socks5'): string {
    const { username, password } = this.#options
    const auth = username === undefined ? '' : `${encodeURIComponent(username)}:${encodeURIComponent(password ?? '')}@`
    return `${scheme}://${auth}127.0.0.1:${this.port}`
  }

  protected override serve(client: net.Socket): void {
    const reader = new Reader(client)
    this.#handshake(client, reader).catch(() => client.destroy())
  }

  async #handshake(client: net.Socket, reader: Reader): Promise<void> {
    const [version, count] = await reader.read(2)
    if (version !== 5) throw new Error('not SOCKS5')
    const methods = [...(await reader.read(count ?? 0))]
    const wantsAuth = this.#options.username !== undefined
    const method = wantsAuth ? 2 : 0
    if (!methods.includes(method)) {
      client.end(Buffer.from([5, 0xff]))
      return
    }
    client.write(Buffer.from([5, method]))
    if (wantsAuth) {
      const [, userLength] = await reader.read(2)
      const user = (await reader.read(userLength ?? 0)).toString()
      const [passLength] = await reader.read(1)
      const pass = (await reader.read(passLength ?? 0)).toString()
      if (user !== this.#options.username || pass !== this.#options.password) {
        this.authFailures++
        client.end(Buffer.from([1, 1]))
        return
      }
      client.write(Buffer.from([1, 0]))
    }
    const [, command, , type] = await reader.read(4)
    let host: string
    if (type === 1) host = [...(await reader.read(4))].join('.')
    else if (type === 4) host = net.SocketAddress.parse(`[${hexGroups(await reader.read(16))}]:0`)?.address ?? ''
    else host = (await reader.read((await reader.read(1))[0] ?? 0)).toString()
    const port = (await reader.read(2)).readUInt16BE(0)
    const reply = (code: number) => Buffer.from([5, code, 0, 1, 0, 0, 0, 0, 0, 0])
    if (command !== 1) return void client.end(reply(REPLY.badCommand))
    if (!(await isLoopbackTarget(host))) return void client.end(reply(REPLY.notAllowed))
    const target = net.connect({ host, port, localAddress: this.localAddress })
    target.once('error', () => client.end(reply(REPLY.refused)))
    await once(target, 'connect')
    this.targets.push(`${host}:${port}`)
    client.write(reply(REPLY.ok))
    const early = reader.detach()
    if (early.length > 0) target.write(early)
    this.relay(client, target)
  }
}

const hexGroups = (bytes: Buffer): string =>
  Array.from({ length: 8 }, (_, i) => bytes.readUInt16BE(i * 2).toString(16)).join(':')
