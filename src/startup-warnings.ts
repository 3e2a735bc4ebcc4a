/**
 * @module startup-warnings
 * Settings that switch a protection off, or leave one out, are allowed (tests, benches, the demo and small setups
 * need them) but never silently: `src/main.ts` logs each of these at warn once the gateway listens, so an operator
 * reading the start-up log sees what is open.
 */
import type { Settings } from './gateway-settings.js'

type WarnedSettings = Pick<
  Settings,
  | 'MEDIA_ALLOW_PRIVATE_URLS'
  | 'VERIFY_PLATFORM_SIGNATURES'
  | 'SESSION_PROXY_ALLOW_PRIVATE'
  | 'REDIS_URL'
  | 'DATA_KEY'
  | 'ADVERTISE_URL'
  | 'TLS_CERT_FILE'
  | 'CLUSTER_REQUIRE_TLS'
>

/** Cluster mode: whether the address the other nodes forward to is plain http (ADVERTISE_URL, or its default). */
const advertisesHttp = (s: WarnedSettings): boolean =>
  s.ADVERTISE_URL === undefined ? s.TLS_CERT_FILE === undefined : s.ADVERTISE_URL.startsWith('http://')

export function startupWarnings(settings: WarnedSettings): string[] {
  const warnings: string[] = []
  if (settings.MEDIA_ALLOW_PRIVATE_URLS) {
    warnings.push('MEDIA_ALLOW_PRIVATE_URLS=true: media URLs may reach loopback and private addresses (SSRF guard off)')
  }
  if (!settings.VERIFY_PLATFORM_SIGNATURES) {
    warnings.push(
      "VERIFY_PLATFORM_SIGNATURES=false: the platform's certificate chain and the phone's account " +
        'signature are not checked (a man in the middle could pose as the platform)',
    )
  }
  if (settings.SESSION_PROXY_ALLOW_PRIVATE) {
    warnings.push(
      "SESSION_PROXY_ALLOW_PRIVATE=true: a tenant's proxy may be a loopback or private address, so any client " +
        'that creates a session can make the gateway connect inside its network',
    )
  }
  if (settings.REDIS_URL !== undefined && settings.DATA_KEY === undefined) {
    warnings.push(
      "cluster mode without DATA_KEY: the sessions' credentials and Signal keys lie in Redis in clear, so " +
        'whoever reads Redis (or its backups) can take over every account',
    )
  }
  if (settings.REDIS_URL !== undefined && advertisesHttp(settings) && !settings.CLUSTER_REQUIRE_TLS) {
    warnings.push(
      'cluster mode with a plain http ADVERTISE_URL and CLUSTER_REQUIRE_TLS=false: requests forwarded between ' +
        "the nodes, tenants' session secrets and messages included, cross the network unencrypted",
    )
  }
  return warnings
}
