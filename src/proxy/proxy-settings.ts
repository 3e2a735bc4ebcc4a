/**
 * @module proxy/proxy-settings
 * The proxy per session's slice of the settings (src/gateway-settings.ts puts the slices together; the Settings
 * tables of docs/operating.md list them).
 */
import { z } from 'zod'
import { bool, int, optional, pickSettings, secret, type SliceOf } from '../settings/fields.js'
import { isAllowedHostsEntry, NO_PROXY_HOSTS } from './proxy-policy.js'
import { parseProxyUrl } from './proxy-url.js'

const commaList = (v: string) =>
  v
    .split(',')
    .map(s => s.trim())
    .filter(Boolean)

export const PROXY_SETTINGS = {
  /**
   * A proxy for every session that has none of its own (`socks5://`, `socks5h://`, `http://`, `https://`, with
   * credentials if needed). The operator's own: not judged by the allow-list or the private-address rule.
   */
  SESSION_PROXY_DEFAULT: secret(
    optional(
      z
        .string()
        .refine(v => parseProxyUrl(v) !== undefined, 'expected a socks5, socks5h, http or https URL with a host'),
    ),
  ),
  /**
   * The proxy hosts tenants may give their sessions: host names, `*.domain`, IP addresses or subnets, comma-separated;
   * empty = any host; `none` = tenants may not set a proxy.
   */
  SESSION_PROXY_ALLOWED_HOSTS: z
    .string()
    .default('')
    .transform(commaList)
    .refine(
      entries => entries.every(isAllowedHostsEntry) && (!entries.includes(NO_PROXY_HOSTS) || entries.length === 1),
      `expected a comma list of host names, *.domain, IP addresses or subnets, or ${NO_PROXY_HOSTS}`,
    ),
  /** Allow tenants' proxies on loopback, private, link-local... addresses. Only tests and the demo set true. */
  SESSION_PROXY_ALLOW_PRIVATE: bool(false),
  /** Download the tenant's media URLs through the session's proxy too (the SSRF guard then judges the proxy). */
  SESSION_PROXY_MEDIA_DOWNLOADS: bool(false),
  /** How long connecting through a proxy (to it, and its handshake) may take before the connection fails. */
  SESSION_PROXY_CONNECT_TIMEOUT_MS: int(20_000, 1),
}

export type ProxySettings = SliceOf<typeof PROXY_SETTINGS>

export const proxySettings = (values: ProxySettings): ProxySettings => pickSettings(values, PROXY_SETTINGS)
