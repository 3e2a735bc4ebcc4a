/**
 * @module proxy/proxy-policy
 * Which proxies a tenant may give its session (SECURITY.md, "A proxy per session"). A proxy is an address the
 * gateway connects to on the tenant's word, so it is guarded like a media URL: a host on a loopback, private,
 * link-local or otherwise non-public address is refused (`400 proxy leads to a private or local address`) unless
 * SESSION_PROXY_ALLOW_PRIVATE=true, and when the operator lists the hosts tenants may use
 * (SESSION_PROXY_ALLOWED_HOSTS), any other is refused. A host name that does not resolve and one that resolves to a
 * refused address get one answer (`400 proxy host name does not resolve to a public address`): POST /session is open
 * to anyone, and two answers would let anyone ask the gateway's DNS which internal names exist. The operator's own SESSION_PROXY_DEFAULT is trusted as
 * configured and never judged here.
 *
 * Judged twice: when the tenant sets it (`check`, with a DNS look-up of a host name, so a typo or a private name is
 * refused at once), and each time a connection is opened through it (`checkHost` for the list and a literal
 * address; the address a name resolves to then is judged by the connecting socket's own look-up, `lookup`), so a
 * setting tightened since, or a name that now resolves elsewhere, is refused too.
 *
 * @example
 * const policy = proxyPolicy(settings)
 * await policy.check(parseProxyUrl('socks5://u:p@127.0.0.1:1080')!) // throws PRIVATE_ADDRESS unless private allowed
 */
import net from 'node:net'
import type { LookupFunction } from 'node:net'
import { createAddressGuard, type Resolve } from '../media/address-guard.js'
import { createMediaResolver } from '../media/media-resolver.js'
import { isPrivateAddress } from '../media/private-address.js'
import { GatewayError } from '../protocol/errors.js'
import type { ProxyUrl } from './proxy-url.js'

/** The settings the policy reads: the proxy's slice (./proxy-settings.ts) and media's DNS (media/settings.ts). */
export interface ProxyPolicySettings {
  SESSION_PROXY_ALLOW_PRIVATE: boolean
  SESSION_PROXY_ALLOWED_HOSTS: readonly string[]
  MEDIA_DNS_SERVERS: readonly string[]
  MEDIA_DNS_TIMEOUT_MS: number
  MEDIA_DNS_MAX_IN_FLIGHT: number
}

/** Exactly the policy's settings out of the whole (plain data: they cross to the media pool's threads). */
export const proxyPolicySettings = (settings: ProxyPolicySettings): ProxyPolicySettings => ({
  SESSION_PROXY_ALLOW_PRIVATE: settings.SESSION_PROXY_ALLOW_PRIVATE,
  SESSION_PROXY_ALLOWED_HOSTS: settings.SESSION_PROXY_ALLOWED_HOSTS,
  MEDIA_DNS_SERVERS: settings.MEDIA_DNS_SERVERS,
  MEDIA_DNS_TIMEOUT_MS: settings.MEDIA_DNS_TIMEOUT_MS,
  MEDIA_DNS_MAX_IN_FLIGHT: settings.MEDIA_DNS_MAX_IN_FLIGHT,
})

/** SESSION_PROXY_ALLOWED_HOSTS=none: tenants may not set a proxy at all. */
export const NO_PROXY_HOSTS = 'none'

export interface ProxyPolicy {
  /** The allow-list and, for an IP literal or `localhost`, the private-address rule; throws PROXY_HOST_NOT_ALLOWED or
   * PRIVATE_ADDRESS. */
  checkHost(url: ProxyUrl): void
  /** `checkHost`, then every address a host name resolves to; throws as it does, or PROXY_NAME_REFUSED. */
  check(url: ProxyUrl): Promise<void>
  /** For the socket that connects to a tenant's proxy: resolves its host with c-ares (never the thread pool, never
   * /etc/hosts) and, unless private addresses are allowed, refuses a private answer. */
  lookup: LookupFunction
}

/** One entry of SESSION_PROXY_ALLOWED_HOSTS: `proxy.example`, `*.proxy.example`, an IP address or a subnet. */
export function isAllowedHostsEntry(entry: string): boolean {
  if (entry === NO_PROXY_HOSTS) return true
  if (entry.includes('/')) return subnetOf(entry) !== undefined
  return (
    net.isIP(entry) !== 0 || /^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/i.test(entry)
  )
}

function subnetOf(entry: string): { address: string; prefix: number; family: 'ipv4' | 'ipv6' } | undefined {
  const [address = '', bits = ''] = entry.split('/')
  const kind = net.isIP(address)
  const prefix = Number(bits)
  if (kind === 0 || !/^\d+$/.test(bits) || prefix > (kind === 4 ? 32 : 128)) return undefined
  return { address, prefix, family: kind === 4 ? 'ipv4' : 'ipv6' }
}

/** Whether `host` (lower case, no brackets) is on the list; an empty list allows every host. */
function allowListMatcher(entries: readonly string[]): (host: string) => boolean {
  if (entries.length === 0) return () => true
  const names = new Set<string>()
  const suffixes: string[] = []
  const subnets = new net.BlockList()
  for (const entry of entries.map(e => e.toLowerCase())) {
    if (entry === NO_PROXY_HOSTS) continue
    const subnet = subnetOf(entry)
    if (subnet) subnets.addSubnet(subnet.address, subnet.prefix, subnet.family)
    else if (entry.startsWith('*.')) suffixes.push(entry.slice(1))
    else if (net.isIP(entry) !== 0) subnets.addAddress(entry, net.isIP(entry) === 4 ? 'ipv4' : 'ipv6')
    else names.add(entry.replace(/\.$/, ''))
  }
  return host => {
    const kind = net.isIP(host)
    if (kind !== 0) return subnets.check(host, kind === 4 ? 'ipv4' : 'ipv6')
    const name = host.replace(/\.$/, '')
    return names.has(name) || suffixes.some(suffix => name.endsWith(suffix))
  }
}

const privateRefusal = () => new GatewayError('PRIVATE_ADDRESS', { path: 'proxy' })
/** A name refused after its look-up, whatever the look-up said: the why goes to the log only. */
const nameRefused = (why: string) => new GatewayError('PROXY_NAME_REFUSED', { cause: why })

export function proxyPolicy(settings: ProxyPolicySettings, resolve?: Resolve): ProxyPolicy {
  const allowed = allowListMatcher(settings.SESSION_PROXY_ALLOWED_HOSTS)
  const judge = !settings.SESSION_PROXY_ALLOW_PRIVATE
  const resolver =
    resolve ??
    createMediaResolver({
      servers: settings.MEDIA_DNS_SERVERS,
      timeoutMs: settings.MEDIA_DNS_TIMEOUT_MS,
      maxInFlight: settings.MEDIA_DNS_MAX_IN_FLIGHT,
    })
  const guard = createAddressGuard({ resolve: resolver })
  const checkHost = (url: ProxyUrl): void => {
    if (!allowed(url.host)) throw new GatewayError('PROXY_HOST_NOT_ALLOWED')
    if (judge && guard.refusesHost(url.host)) throw privateRefusal()
  }
  return {
    checkHost,
    async check(url) {
      checkHost(url)
      if (!judge || net.isIP(url.host) !== 0) return
      let addresses: { address: string }[]
      try {
        addresses = await resolver(url.host, 0)
      } catch (err) {
        throw nameRefused((err as Error).message)
      }
      if (addresses.length === 0) throw nameRefused(`no address for ${url.host}`)
      if (addresses.some(a => isPrivateAddress(a.address)))
        throw nameRefused(`${url.host} resolves to a private address`)
    },
    lookup: judge ? guard.lookup : guard.lookupAny,
  }
}

/** One policy per thread (one c-ares resolver, one cap on look-ups in flight), for the thread's settings. */
let threadPolicy: { key: string; policy: ProxyPolicy } | undefined

export function threadProxyPolicy(settings: ProxyPolicySettings): ProxyPolicy {
  const { SESSION_PROXY_ALLOW_PRIVATE, SESSION_PROXY_ALLOWED_HOSTS, MEDIA_DNS_SERVERS } = settings
  const { MEDIA_DNS_TIMEOUT_MS, MEDIA_DNS_MAX_IN_FLIGHT } = settings
  const key = JSON.stringify([
    SESSION_PROXY_ALLOW_PRIVATE,
    SESSION_PROXY_ALLOWED_HOSTS,
    MEDIA_DNS_SERVERS,
    MEDIA_DNS_TIMEOUT_MS,
    MEDIA_DNS_MAX_IN_FLIGHT,
  ])
  if (threadPolicy?.key !== key) threadPolicy = { key, policy: proxyPolicy(settings) }
  return threadPolicy.policy
}
