/**
 * @module proxy/proxy-connection
 * How one connection goes through a session's proxy: the parsed URL and the agents' options. A tenant's proxy is
 * held to the proxy policy again here, at every connection (allow-list, literal private address; a host name is
 * judged by the connecting socket's own look-up), so a setting tightened since the proxy was stored applies. The
 * operator's default (SESSION_PROXY_DEFAULT) is trusted as configured and resolved by the system.
 */
import { ProxyError, type ProxyAgentOptions } from './proxy-agent.js'
import { proxyPolicySettings, threadProxyPolicy, type ProxyPolicySettings } from './proxy-policy.js'
import { parseProxyUrl, type ProxyRoute, type ProxyUrl } from './proxy-url.js'

export interface ProxyConnectionSettings extends ProxyPolicySettings {
  SESSION_PROXY_CONNECT_TIMEOUT_MS: number
}

/** Just the settings a connection needs, as plain data (they cross to the media pool's threads with each job). */
export const proxyConnectionSettings = (settings: ProxyConnectionSettings): ProxyConnectionSettings => ({
  ...proxyPolicySettings(settings),
  SESSION_PROXY_CONNECT_TIMEOUT_MS: settings.SESSION_PROXY_CONNECT_TIMEOUT_MS,
})

/** A proxy URL and the options of the agents that connect through it. */
export interface ProxyConnection {
  url: ProxyUrl
  options: ProxyAgentOptions
}

/** The proxy URL and how to connect to it, after the policy's check of a tenant's proxy; throws when refused. */
export function proxyConnection(route: ProxyRoute, settings: ProxyConnectionSettings, ca?: string): ProxyConnection {
  const url = parseProxyUrl(route.url)
  if (!url) throw new ProxyError('the stored proxy is not a proxy URL the gateway can use')
  const options: ProxyAgentOptions = { timeoutMs: settings.SESSION_PROXY_CONNECT_TIMEOUT_MS, ca }
  if (route.chosenBy === 'session') {
    const policy = threadProxyPolicy(settings)
    try {
      policy.checkHost(url)
    } catch (err) {
      throw new ProxyError(`proxy ${url.masked} refused by the gateway's settings: ${(err as Error).message}`)
    }
    options.lookup = policy.lookup
  }
  return { url, options }
}
