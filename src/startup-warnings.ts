/**
 * @module startup-warnings
 * Settings that switch a protection off are allowed (tests, benches and the demo need them) but never silently:
 * `src/main.ts` logs each of these at warn once the gateway listens, so an operator reading the start-up log sees
 * what is open.
 */
import type { Config } from './config.js'

export function startupWarnings(
  config: Pick<Config, 'MEDIA_ALLOW_PRIVATE_URLS' | 'VERIFY_PLATFORM_SIGNATURES'>,
): string[] {
  const warnings: string[] = []
  if (config.MEDIA_ALLOW_PRIVATE_URLS) {
    warnings.push('MEDIA_ALLOW_PRIVATE_URLS=true: media URLs may reach loopback and private addresses (SSRF guard off)')
  }
  if (!config.VERIFY_PLATFORM_SIGNATURES) {
    warnings.push(
      "VERIFY_PLATFORM_SIGNATURES=false: the platform's certificate chain and the phone's account " +
        'signature are not checked (a man in the middle could pose as the platform)',
    )
  }
  return warnings
}
