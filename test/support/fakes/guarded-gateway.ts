/**
 * @module test/support/fakes/guarded-gateway
 * The app on the fake session system behind the gateway's own server (src/http/server.ts) with its connection
 * guard, on a loopback port: what a client meets of the connection caps, the write time-out and the answer budget
 * (src/http/connections, src/http/answers), and /metrics to read their counts. Plus the clients that attack them:
 * one that sends a request and never reads its answer, one that only opens a connection.
 */
import { once } from 'node:events'
import type http from 'node:http'
import net from 'node:net'
import type { AppDeps } from '../../../src/http/app.js'
import { ConnectionGuard } from '../../../src/http/connections/connection-guard.js'
import { createHttpServer } from '../../../src/http/server.js'
import { loadSettings } from '../../../src/gateway-settings.js'
import { parseProm, sumOf } from '../prom-text.js'
import { makeApp, type TestApp } from './fake-system.js'
import { onLoopback } from '../loopback-server.js'

export interface GuardedGateway extends TestApp {
  server: http.Server
  url: string
  port: number
  /** The server's guard, as the server applies it. */
  connections: ConnectionGuard
  /** A series of /metrics, summed over the series matching `labels`. */
  metric(name: string, labels?: Record<string, string>): Promise<number>
  /** Closes every client socket the helpers below opened, then the server. */
  close(): Promise<void>
  /** A client that sends `GET path` with `headers` and never reads a byte of the answer. */
  neverReading(path: string, headers: Record<string, string>, from?: string): Promise<net.Socket>
  /** A connection that sends nothing: resolves with what the server said before closing it ('' when it is open). */
  connect(from?: string): Promise<Connection>
}

export interface Connection {
  socket: net.Socket
  /** Everything the server wrote, once it closed the connection. */
  answer: Promise<string>
}

/** `cluster`: a cluster node's part of the app (its front), for what cluster mode changes. */
export async function serveGuarded(env: NodeJS.ProcessEnv = {}, cluster?: AppDeps['cluster']): Promise<GuardedGateway> {
  const connections = new ConnectionGuard(loadSettings({ BODY_LIMIT_BYTES: '4096', ...env }))
  const t = makeApp(env, { connections, ...(cluster ? { cluster } : {}) })
  const served = await onLoopback(createHttpServer(t.app, undefined, connections))
  const { server, port, url } = served
  const sockets: net.Socket[] = []

  async function open(from: string | undefined): Promise<net.Socket> {
    const socket = net.connect({ host: '127.0.0.1', port, ...(from ? { localAddress: from } : {}) })
    sockets.push(socket)
    socket.on('error', () => {}) // a cut connection is what some tests wait for
    await once(socket, 'connect')
    return socket
  }

  return {
    ...t,
    server,
    url,
    port,
    connections,
    async metric(name, labels = {}) {
      return sumOf(parseProm(await (await fetch(`${url}/metrics`)).text()), name, labels)
    },
    async close() {
      for (const socket of sockets) socket.destroy()
      await served.close()
    },
    async neverReading(path, headers, from) {
      // paused before the first byte comes: past node's small read buffer nothing is read, the kernel's receive
      // buffer fills (it grows only as the application reads), and the server's writes stall
      const socket = await open(from)
      socket.pause()
      const lines = Object.entries({ host: `127.0.0.1:${port}`, ...headers }).map(([k, v]) => `${k}: ${v}\r\n`)
      socket.write(`GET ${path} HTTP/1.1\r\n${lines.join('')}\r\n`)
      return socket
    },
    async connect(from) {
      const socket = await open(from)
      const chunks: Buffer[] = []
      socket.on('data', chunk => chunks.push(chunk))
      const answer = once(socket, 'close').then(() => Buffer.concat(chunks).toString())
      return { socket, answer }
    },
  }
}
