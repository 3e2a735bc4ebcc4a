/**
 * @module startup-warnings
 * Settings that switch a protection off are allowed (tests, benches and the demo need them) but never silently:
 * `src/main.ts` logs each of these at warn once the gateway listens, so an operator reading the start-up log sees
 * what is open.
 */
import type { MediaSettings } from './media/settings.js'
import type { PlatformSettings } from './platform/settings.js'

export function startupWarnings(
  settings: Pick<MediaSettings, 'MEDIA_ALLOW_PRIVATE_URLS'> & Pick<PlatformSettings, 'VERIFY_PLATFORM_SIGNATURES'>,
): string[] {
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
  return warnings
}
