/**
 * @module platform/baileys/link-agents
 * What one link's Baileys socket connects with: the WebSocket's `agent`, the `fetchAgent` of its uploads and the
 * undici `dispatcher` of its downloads (`options.dispatcher`). Against the sandbox they trust its CA
 * (sandbox-agents.ts); behind a proxy (docs/api.md: A proxy per session) every one of them goes through the proxy
 * (src/proxy), trusting the sandbox's CA for the target when there is one.
 *
 * Throws when the proxy is refused (proxy-connection.ts): the link then fails to start and the session reconnects
 * with backoff.
 */
import type http from 'node:http'
import type { Dispatcher } from 'undici'
import type { LinkSettings } from '../settings.js'
import type { ProxyRoute, SandboxTrust } from '../link.js'
import { tunnelAgent } from '../../proxy/proxy-agent.js'
import { proxyConnection } from '../../proxy/proxy-connection.js'
import { proxyDispatcher } from '../../proxy/proxy-dispatcher.js'
import { sandboxAgents } from './sandbox-agents.js'

export interface LinkAgents {
  /** Baileys' `agent` (the WebSocket); undefined: ws connects directly. */
  ws: http.Agent | undefined
  /** Baileys' `fetchAgent` (its uploads through node https). */
  fetch: http.Agent
  /** Baileys' `options.dispatcher` (its downloads through global fetch). */
  dispatcher: Dispatcher
  destroy(): void
}

/** The link's agents, or undefined when it connects directly to the platform. */
export function linkAgents(settings: LinkSettings, sandbox?: SandboxTrust, proxy?: ProxyRoute): LinkAgents | undefined {
  if (!proxy) {
    if (!sandbox) return undefined
    const agents = sandboxAgents(sandbox.caCert)
    return {
      ws: sandbox.wsUrl.startsWith('wss:') ? agents.https : undefined,
      fetch: agents.https,
      dispatcher: agents.dispatcher,
      destroy: agents.destroy,
    }
  }
  const { url, options } = proxyConnection(proxy, settings, sandbox?.caCert)
  const agent = tunnelAgent(url, options)
  const dispatcher = proxyDispatcher(url, options)
  return {
    ws: agent,
    fetch: agent,
    dispatcher,
    destroy: () => {
      agent.destroy()
      dispatcher.close().catch(() => undefined)
    },
  }
}
