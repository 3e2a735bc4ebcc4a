/**
 * @module proxy/proxy-url
 * A session's proxy as the gateway takes it: `socks5://`, `socks5h://` (names resolved at the proxy), `http://` or
 * `https://` (CONNECT tunnels), a host, an optional port (1080, 80, 443 by default) and optional credentials; no
 * path, query or fragment. The URL in full is a secret (its password): it is stored sealed with the session's data
 * and handed only to the agents that connect through it. Anything shown (answers, logs, errors) is `masked`, with
 * the password replaced by `***`; a username given alone is a credential itself (`socks5://<api token>@host`, as
 * many proxy services take it), so it is replaced whole.
 *
 * @example
 * parseProxyUrl('socks5://alice:s3cret@proxy.example:1080')?.masked // 'socks5://alice:***@proxy.example:1080'
 * parseProxyUrl('socks5://tok3n@proxy.example:1080')?.masked // 'socks5://***@proxy.example:1080'
 * parseProxyUrl('ftp://proxy.example') // undefined
 */

/**
 * The proxy a session's connections go through: the URL in full, a secret never to be logged, and whose choice it
 * is. A tenant's (`session`) is held to the proxy policy at every connection (allow-list, private addresses); the
 * operator's default (`default`, SESSION_PROXY_DEFAULT) is trusted as configured.
 */
export interface ProxyRoute {
  url: string
  chosenBy: 'session' | 'default'
}

export type ProxyScheme = 'socks5' | 'socks5h' | 'http' | 'https'

export const PROXY_SCHEMES: readonly ProxyScheme[] = ['socks5', 'socks5h', 'http', 'https']

const DEFAULT_PORT: Record<ProxyScheme, number> = { socks5: 1080, socks5h: 1080, http: 80, https: 443 }

export interface ProxyUrl {
  /** The URL in full, credentials included: never log or answer it. */
  href: string
  scheme: ProxyScheme
  /** The host as written, lower case, IPv6 without brackets. */
  host: string
  port: number
  /** Decoded credentials, when the URL has them. */
  username: string | undefined
  password: string | undefined
  /** What may be shown: `socks5://alice:***@proxy.example:1080`, `socks5://***@proxy.example:1080` (a lone username). */
  masked: string
}

const isScheme = (value: string): value is ProxyScheme => (PROXY_SCHEMES as readonly string[]).includes(value)

function httpHostname(hostname: string): string | undefined {
  try {
    return new URL(`http://${hostname}`).hostname
  } catch {
    return undefined
  }
}

/** The proxy URL `text` names, or undefined when it is not one the gateway can use. */
export function parseProxyUrl(text: string): ProxyUrl | undefined {
  if (!URL.canParse(text)) return undefined
  const url = new URL(text)
  const scheme = url.protocol.replace(/:$/, '')
  if (!isScheme(scheme) || url.hostname === '') return undefined
  if ((url.pathname !== '' && url.pathname !== '/') || url.search !== '' || url.hash !== '') return undefined
  const port = url.port === '' ? DEFAULT_PORT[scheme] : Number(url.port)
  if (port < 1) return undefined
  // socks5 URLs are not "special" to the WHATWG parser, which then leaves `127.1` or `0x7f.1` as written: read the
  // host as http would (every IPv4 spelling dotted, names lower case), so the policy judges what is connected to.
  const hostname = httpHostname(url.hostname)
  if (hostname === undefined) return undefined
  const host = hostname.replace(/^\[|\]$/g, '')
  const hostPort = `${hostname}:${port}`
  const username = url.username === '' ? undefined : decodeURIComponent(url.username)
  const password = url.password === '' ? undefined : decodeURIComponent(url.password)
  const user = url.username
  const auth = user === '' ? '' : `${user}${password === undefined ? '' : `:${url.password}`}@`
  const shown = user === '' ? '' : password === undefined ? '***@' : `${user}:***@`
  return {
    href: `${scheme}://${auth}${hostPort}`,
    scheme,
    host,
    port,
    username,
    password,
    masked: `${scheme}://${shown}${hostPort}`,
  }
}

/** The shown form of a stored proxy URL; a URL that no longer parses shows as its scheme alone. */
export function maskProxy(text: string): string {
  return parseProxyUrl(text)?.masked ?? `${text.split(':')[0] ?? 'proxy'}://***`
}
