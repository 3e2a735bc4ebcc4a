/**
 * @module proxy/proxy-agent
 * `http.Agent`s that carry a session's connections through its proxy: the platform WebSocket (Baileys' `agent`),
 * media uploads (Baileys' `fetchAgent`, the media pool's uploads) and, where the operator allows it, the downloads
 * of the tenant's media URLs. The connecting is done by the maintained agents of the proxy-agents family
 * (`socks-proxy-agent` for `socks5`/`socks5h`, `https-proxy-agent` for CONNECT tunnels, `http-proxy-agent` for plain
 * `http:` requests through an HTTP proxy, which proxies forward and often refuse to tunnel); this module adds what
 * the gateway needs around them:
 *
 * - **a bound on connecting**: connecting to the proxy and its handshake (SOCKS negotiation, CONNECT answer) end
 *   after `timeoutMs` with an error, and the half-open socket is destroyed; a proxy that accepts and never answers
 *   is a failed connection (the actor then reconnects with backoff), never a hang or a leaked socket;
 * - **clear errors**: every failure is a `ProxyError` naming the proxy without its password
 *   (`proxy socks5://alice:***@proxy.example:1080: Socks5 Authentication failed`), and a CONNECT the proxy refuses
 *   (407, 403, 502...) is such an error rather than the proxy's answer passed off as the target's;
 * - **how the proxy's host is resolved** (`lookup`): for a tenant's proxy, the policy's judging look-up
 *   (proxy-policy.ts), so the address connected to is the one judged;
 * - **the sandbox's CA** for TLS to the target (`ca`), which the agents otherwise take only from each request.
 *
 * @example
 * const agent = tunnelAgent(parseProxyUrl(url)!, { timeoutMs: 20_000 })
 * makeWASocket({ ..., agent, fetchAgent: agent })
 */
import type http from 'node:http'
import { createRequire } from 'node:module'
import type { LookupFunction, Socket } from 'node:net'
import tls from 'node:tls'
import type { HttpProxyAgent } from 'http-proxy-agent'
import type { HttpsProxyAgent } from 'https-proxy-agent'
import type { SocksProxyAgent } from 'socks-proxy-agent'
import type { ProxyUrl } from './proxy-url.js'

// Required on first use, like undici in sandbox-agents.ts: every shard and media thread imports this module, and
// the agents (with socks, agent-base, debug) weigh ~2 MB of heap in each thread that loads them; a gateway whose
// sessions have no proxy never does.
const require = createRequire(import.meta.url)
interface AgentModules {
  SocksProxyAgent: typeof SocksProxyAgent
  HttpsProxyAgent: typeof HttpsProxyAgent
  HttpProxyAgent: typeof HttpProxyAgent
}
let modules: AgentModules | undefined
const agentModules = (): AgentModules =>
  (modules ??= {
    SocksProxyAgent: (require('socks-proxy-agent') as AgentModules).SocksProxyAgent,
    HttpsProxyAgent: (require('https-proxy-agent') as AgentModules).HttpsProxyAgent,
    HttpProxyAgent: (require('http-proxy-agent') as AgentModules).HttpProxyAgent,
  })

export interface ProxyAgentOptions {
  /** How long connecting to the proxy and its handshake may take (SESSION_PROXY_CONNECT_TIMEOUT_MS). */
  timeoutMs: number
  /** Resolves the proxy's host (a tenant's proxy: the policy's judging look-up); default the system's. */
  lookup?: LookupFunction | undefined
  /** Extra PEM root trusted for TLS to the target (the sandbox's CA), beside the system's. */
  ca?: string | undefined
  /** Keep connections to the target for reuse (uploads); the WebSocket and downloads open their own. */
  keepAlive?: boolean
}

/** A connection through the proxy failed; the message names the proxy without its password. */
export class ProxyError extends Error {
  override name = 'ProxyError'
}

/** What an agent's connect() is given for the target (agent-base's options: host, port, secureEndpoint...). */
type AgentConnectOpts = Parameters<HttpsProxyAgent<string>['connect']>[1]

const proxyError = (proxy: ProxyUrl, what: string) => new ProxyError(`proxy ${proxy.masked}: ${what}`)

const reasonOf = (err: unknown): string => (err instanceof Error && err.message ? err.message : String(err))

interface ConnectingAgent {
  connect(req: http.ClientRequest, opts: AgentConnectOpts): Promise<Socket>
}

/**
 * Runs one connect of an agent under the time bound: on time-out `abort` ends the half-open socket and the error
 * names the proxy; a socket that still arrives late is destroyed. Any other failure is named the same way.
 */
async function bounded(
  proxy: ProxyUrl,
  timeoutMs: number,
  connect: () => Promise<Socket>,
  abort: () => void,
): Promise<Socket> {
  let timer: NodeJS.Timeout | undefined
  let late = false
  const work = connect()
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      late = true
      abort()
      reject(proxyError(proxy, `did not answer within ${timeoutMs} ms`))
    }, timeoutMs)
  })
  try {
    return await Promise.race([work, timeout])
  } catch (err) {
    if (err instanceof ProxyError) throw err
    throw proxyError(proxy, reasonOf(err))
  } finally {
    clearTimeout(timer)
    if (late)
      work.then(
        socket => socket.destroy(),
        () => undefined,
      )
  }
}

/** The TLS options every target connection gets: the extra CA beside the system's roots. */
const withCa = (opts: AgentConnectOpts, ca: string | undefined): AgentConnectOpts =>
  ca === undefined || !opts.secureEndpoint ? opts : { ...opts, ca: [...tls.rootCertificates, ca] }

/** SOCKS5: the handshake is bounded by socks' own time-out, which destroys its socket. Made on first use. */
let BoundedSocksAgent: (new (route: ProxyUrl, options: ProxyAgentOptions) => http.Agent) | undefined

function socksAgent(route: ProxyUrl, options: ProxyAgentOptions): http.Agent {
  BoundedSocksAgent ??= class extends agentModules().SocksProxyAgent {
    readonly #route: ProxyUrl
    readonly #options: ProxyAgentOptions

    constructor(route: ProxyUrl, options: ProxyAgentOptions) {
      super(route.href, {
        keepAlive: options.keepAlive ?? false,
        ...(options.lookup ? { socketOptions: { lookup: options.lookup } } : {}),
      })
      this.#route = route
      this.#options = options
    }

    override connect(req: http.ClientRequest, opts: AgentConnectOpts): Promise<Socket> {
      // The time-out socks-proxy-agent passes on also becomes an idle time-out of the open tunnel (a quiet
      // WebSocket would be cut): it is set for the handshake only and lifted from the tunnel's socket once it is up.
      let tunnel: Socket | undefined
      req.once('proxy', (event: { socket: Socket }) => {
        tunnel = event.socket
      })
      this.timeout = this.#options.timeoutMs
      const connecting = super.connect(req, withCa(opts, this.#options.ca))
      this.timeout = null
      const lifted = connecting.then(socket => {
        tunnel?.setTimeout(0)
        tunnel?.removeAllListeners('timeout')
        return socket
      })
      return bounded(
        this.#route,
        this.#options.timeoutMs + 1_000,
        () => lifted,
        () => undefined,
      )
    }
  }
  return new BoundedSocksAgent(route, options)
}

/** The agents that open their socket to the proxy from `connectOpts`: each connect gets its own abort signal. */
type HttpFamilyAgent = (HttpsProxyAgent<string> | HttpProxyAgent<string>) & ConnectingAgent

function boundHttpFamily(agent: HttpFamilyAgent, route: ProxyUrl, options: ProxyAgentOptions): void {
  const connect = agent.connect.bind(agent)
  agent.connect = (req: http.ClientRequest, opts: AgentConnectOpts) => {
    const controller = new AbortController()
    let status: number | undefined
    req.once('proxyConnect', (answer: { statusCode?: number }) => {
      status = answer.statusCode
    })
    return bounded(
      route,
      options.timeoutMs,
      async () => {
        // The socket to the proxy is made synchronously from connectOpts when connect() starts.
        const base = agent.connectOpts
        agent.connectOpts = { ...base, signal: controller.signal }
        let socket: Promise<Socket>
        try {
          socket = connect(req, withCa(opts, options.ca))
        } finally {
          agent.connectOpts = base
        }
        const tunnel = await socket
        if (status !== undefined && status !== 200) {
          tunnel.destroy()
          throw proxyError(route, `refused the tunnel (HTTP ${status})`)
        }
        return tunnel
      },
      () => controller.abort(),
    )
  }
}

/** The proxy's own connection options: how its host is resolved, and TLS to an `https:` proxy. */
function httpFamilyOptions(route: ProxyUrl, options: ProxyAgentOptions) {
  return {
    keepAlive: options.keepAlive ?? false,
    ...(options.lookup ? { lookup: options.lookup } : {}),
    ...(route.scheme === 'https' ? { servername: route.host } : {}),
  }
}

/** An agent that tunnels every connection (WebSocket, https) through the proxy: SOCKS, or HTTP CONNECT. */
export function tunnelAgent(route: ProxyUrl, options: ProxyAgentOptions): http.Agent {
  if (route.scheme === 'socks5' || route.scheme === 'socks5h') return socksAgent(route, options)
  const agent = new (agentModules().HttpsProxyAgent)(route.href, httpFamilyOptions(route, options)) as HttpFamilyAgent
  boundHttpFamily(agent, route, options)
  return agent as unknown as http.Agent
}

/** An agent for plain `http:` requests: forwarded by an HTTP proxy (absolute URI), tunnelled by a SOCKS one. */
export function forwardAgent(route: ProxyUrl, options: ProxyAgentOptions): http.Agent {
  if (route.scheme === 'socks5' || route.scheme === 'socks5h') return socksAgent(route, options)
  const agent = new (agentModules().HttpProxyAgent)(route.href, httpFamilyOptions(route, options)) as HttpFamilyAgent
  boundHttpFamily(agent, route, options)
  return agent as unknown as http.Agent
}
