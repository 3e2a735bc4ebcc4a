/**
 * @module proxy/proxy-dispatcher
 * The proxy for what Baileys downloads with the global `fetch` (history-sync blobs, app-state snapshots, its
 * `options.dispatcher`): `fetch` takes an undici dispatcher, not an `http.Agent`. An HTTP(S) proxy is undici's own
 * `ProxyAgent` (CONNECT tunnels); a SOCKS5 proxy is an undici `Agent` whose connections are opened through the proxy
 * by `socks` (the client socks-proxy-agent is built on), with TLS to the target on top. Both bound connecting by
 * `timeoutMs`, resolve the proxy's host with `lookup`, and trust `ca` for the target beside the system's roots, like
 * the agents of proxy-agent.ts; a failure is a `ProxyError` naming the proxy without its password.
 *
 * undici and socks are required on first use, as in sandbox-agents.ts: a thread that never connects through a proxy
 * never loads them.
 */
import dns from 'node:dns/promises'
import { createRequire } from 'node:module'
import type { Socket } from 'node:net'
import tls from 'node:tls'
import type { SocksClient } from 'socks'
import type { Dispatcher } from 'undici'
import { ProxyError, type ProxyAgentOptions } from './proxy-agent.js'
import type { ProxyUrl } from './proxy-url.js'

const require = createRequire(import.meta.url)
let undici: typeof import('undici') | undefined
let socks: { SocksClient: typeof SocksClient } | undefined

type Connected = (err: Error | null, socket: Socket | null) => void

interface ConnectTarget {
  hostname: string
  port: string
  protocol: string
  servername?: string | null
}

/** Opens one connection to `target` through a SOCKS5 proxy; `socks5` resolves the target here, `socks5h` there. */
async function socksConnect(route: ProxyUrl, options: ProxyAgentOptions, target: ConnectTarget): Promise<Socket> {
  const port = Number(target.port) || (target.protocol === 'https:' ? 443 : 80)
  const host = route.scheme === 'socks5' ? (await dns.lookup(target.hostname)).address : target.hostname
  socks ??= require('socks') as { SocksClient: typeof SocksClient }
  const { socket } = await socks.SocksClient.createConnection({
    proxy: {
      host: route.host,
      port: route.port,
      type: 5,
      ...(route.username === undefined ? {} : { userId: route.username }),
      ...(route.password === undefined ? {} : { password: route.password }),
    },
    command: 'connect',
    destination: { host, port },
    timeout: options.timeoutMs,
    ...(options.lookup ? { socket_options: { lookup: options.lookup } as never } : {}),
  })
  if (target.protocol !== 'https:') return socket
  const secure = tls.connect({
    socket,
    servername: target.servername ?? target.hostname,
    ALPNProtocols: ['http/1.1'],
    ...(options.ca ? { ca: [...tls.rootCertificates, options.ca] } : {}),
  })
  await new Promise<void>((resolve, reject) => {
    secure.once('secureConnect', resolve)
    secure.once('error', reject)
  })
  return secure
}

/** A dispatcher for `fetch` that sends every request through the proxy. */
export function proxyDispatcher(route: ProxyUrl, options: ProxyAgentOptions): Dispatcher {
  undici ??= require('undici') as typeof import('undici')
  const ca = options.ca ? { ca: [...tls.rootCertificates, options.ca] } : {}
  if (route.scheme === 'http' || route.scheme === 'https') {
    return new undici.ProxyAgent({
      uri: route.href,
      connectTimeout: options.timeoutMs,
      requestTls: { ...ca, timeout: options.timeoutMs },
      proxyTls: { timeout: options.timeoutMs, ...(options.lookup ? { lookup: options.lookup } : {}) } as never,
    })
  }
  return new undici.Agent({
    connect: (target: ConnectTarget, callback: Connected) => {
      socksConnect(route, options, target).then(
        socket => callback(null, socket),
        (err: Error) => callback(new ProxyError(`proxy ${route.masked}: ${err.message}`), null),
      )
    },
  } as never)
}
