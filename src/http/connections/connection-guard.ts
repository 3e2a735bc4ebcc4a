/**
 * @module http/connections/connection-guard
 * What one client, and all of them, may hold of the server's sockets, and for how long an answer may wait for its
 * client (README: Limits; SECURITY.md).
 *
 * - **Caps.** Open connections per client address (`CONNECTIONS_PER_CLIENT`, an IPv6 client being its /64 as in
 *   client-key.ts) and in all (`CONNECTIONS_PER_PROCESS`). They are counted when TCP accepts the connection, before
 *   any HTTP (or TLS) is read, so the address is the TCP peer's: behind a reverse proxy that is the proxy, and
 *   X-Forwarded-For is not there yet to tell the clients apart. A peer TRUST_PROXY believes is therefore counted only
 *   in the total (its own connection limits are the ones that bound its clients). So is, in cluster mode, a
 *   connection once it carried a request a peer node signed (`countOnlyInTotal`, called from app.ts). A connection
 *   past a cap is answered `503` in the spec's shape with `Retry-After` on the raw socket and closed (with https, where no TLS
 *   session exists yet to answer in, only closed); its requests never reach the app.
 * - **Write time-out.** A socket whose answer bytes have waited `ANSWER_WRITE_TIMEOUT_MS` without its buffer ever
 *   emptying (a client that never reads, or reads too slowly to take an answer in that time) is destroyed: what it
 *   held is freed, and the answer counted as cut. Checked by one sweep over the open sockets (a quarter of the
 *   time-out, at most every second), nothing per request.
 */
import type { Server } from 'node:http'
import type { Socket } from 'node:net'
import type { TLSSocket } from 'node:tls'
import proxyAddr from 'proxy-addr'
import { answerRaw } from '../client-errors.js'
import { clientKey } from '../client-key.js'
import type { HttpSettings } from '../settings.js'

export type ConnectionGuardSettings = Pick<
  HttpSettings,
  'CONNECTIONS_PER_CLIENT' | 'CONNECTIONS_PER_PROCESS' | 'ANSWER_WRITE_TIMEOUT_MS' | 'TRUST_PROXY'
>

/** Which cap refused a connection (the label of `gateway_http_connections_refused_total`). */
export type RefusedBy = 'client' | 'process'

/** Whether TRUST_PROXY believes the TCP peer `address` as a proxy: the same test express makes of the nearest hop. */
export function trustsPeer(trust: HttpSettings['TRUST_PROXY']): (address: string) => boolean {
  if (typeof trust === 'boolean') return () => trust
  if (typeof trust === 'number') return () => trust > 0
  const trusted = proxyAddr.compile(trust.split(',').map(s => s.trim()))
  return address => trusted(address, 0)
}

export class ConnectionGuard {
  readonly #settings: ConnectionGuardSettings
  readonly #trusted: (address: string) => boolean
  readonly #perClient = new Map<string, number>()
  /** Each open connection counted against its client (`address|port`), with that client's key. */
  readonly #clientOf = new Map<string, string>()
  #open = 0
  readonly #refusedBy: Record<RefusedBy, number> = { client: 0, process: 0 }
  #cut = 0
  #tls = false
  /** Sockets refused by a cap: node's parser still reads them, the request listener must not run their requests. */
  readonly #refused = new WeakSet<object>()
  /** The sockets answers are written on, each with when its waiting bytes were first seen (0: none wait). */
  readonly #writers = new Map<Socket | TLSSocket, number>()

  constructor(settings: ConnectionGuardSettings) {
    this.#settings = settings
    this.#trusted = trustsPeer(settings.TRUST_PROXY)
  }

  /** Connections open now (refused ones not counted). */
  get open(): number {
    return this.#open
  }

  /** Connections refused since start, by cap. */
  refusedBy(cap: RefusedBy): number {
    return this.#refusedBy[cap]
  }

  /** Answers cut by the write time-out since start. */
  get cut(): number {
    return this.#cut
  }

  /** Whether `socket` was refused: the server drops its requests unread. */
  isRefused(socket: object): boolean {
    return this.#refused.has(socket)
  }

  /** Guards `server` (http or https: `tls` says which), until it closes. */
  attach(server: Server, tls: boolean): void {
    this.#tls = tls
    // before node's own listener, so a refused socket is marked before its first request can be parsed
    server.prependListener('connection', (socket: Socket) => this.#accept(socket))
    // the sweep watches the socket answers are written on: the TLS socket over the TCP one with https
    if (tls) server.on('secureConnection', (socket: TLSSocket) => this.#watch(socket))
    else server.on('connection', (socket: Socket) => this.#watch(socket))
    const every = Math.max(10, Math.min(1_000, Math.floor(this.#settings.ANSWER_WRITE_TIMEOUT_MS / 4)))
    const sweep = setInterval(() => this.#sweep(), every)
    sweep.unref()
    server.once('close', () => clearInterval(sweep))
  }

  #accept(socket: Socket): void {
    const address = socket.remoteAddress ?? ''
    const key = this.#trusted(address) ? undefined : clientKey(address)
    const { CONNECTIONS_PER_CLIENT: perClient, CONNECTIONS_PER_PROCESS: perProcess } = this.#settings
    const mine = key === undefined ? 0 : (this.#perClient.get(key) ?? 0)
    const refusedBy: RefusedBy | undefined =
      perProcess > 0 && this.#open >= perProcess
        ? 'process'
        : perClient > 0 && key !== undefined && mine >= perClient
          ? 'client'
          : undefined
    if (refusedBy !== undefined) {
      this.#refusedBy[refusedBy]++
      this.#refused.add(socket)
      // https: no TLS session yet to answer in, so the connection is only closed
      if (this.#tls) {
        socket.destroy()
        return
      }
      answerRaw(socket, refusedBy === 'client' ? 'CONNECTIONS_PER_CLIENT' : 'CONNECTIONS_PER_PROCESS')
      // once the answer is with the kernel the socket goes, whatever the client still sends
      socket.once('finish', () => socket.destroy())
      return
    }
    this.#open++
    if (key === undefined) {
      socket.once('close', () => this.#open--)
      return
    }
    this.#perClient.set(key, mine + 1)
    // the same connection as the TLS socket over it sees it: its peer's address and port
    const connection = `${address}|${socket.remotePort}`
    this.#clientOf.set(connection, key)
    socket.once('close', () => {
      this.#open--
      if (this.#clientOf.get(connection) !== key) return // counted only in the total since (countOnlyInTotal)
      this.#clientOf.delete(connection)
      this.#leaveClient(key)
    })
  }

  #leaveClient(key: string): void {
    const left = (this.#perClient.get(key) ?? 1) - 1
    if (left > 0) this.#perClient.set(key, left)
    else this.#perClient.delete(key)
  }

  /**
   * Cluster mode: `socket` carried a request signed by a peer node (many clients' requests on its connections), so
   * from now on it counts only in the total, as a trusted proxy's does. A peer's connection counts against its
   * address only until its first request is verified.
   */
  countOnlyInTotal(socket: Socket | TLSSocket): void {
    const connection = `${socket.remoteAddress ?? ''}|${socket.remotePort}`
    const key = this.#clientOf.get(connection)
    if (key === undefined) return
    this.#clientOf.delete(connection)
    this.#leaveClient(key)
  }

  #watch(socket: Socket | TLSSocket): void {
    if (this.#refused.has(socket)) return
    this.#writers.set(socket, 0)
    socket.once('close', () => this.#writers.delete(socket))
  }

  #sweep(): void {
    const now = Date.now()
    const timeout = this.#settings.ANSWER_WRITE_TIMEOUT_MS
    for (const [socket, since] of this.#writers) {
      if (socket.writableLength === 0) {
        if (since !== 0) this.#writers.set(socket, 0)
      } else if (since === 0) {
        this.#writers.set(socket, now)
      } else if (now - since >= timeout) {
        this.#cut++
        this.#writers.delete(socket)
        socket.destroy()
      }
    }
  }
}
