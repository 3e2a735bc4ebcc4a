/**
 * @module platform/settings
 * The platform link's slice of the settings (docs/operating.md): the platform itself or the sandbox, how long a send
 * waits for the server's ack and a query for its answer, the channel list's query id, the group pictures fetched at
 * once and kept, and the signature checks.
 */
import net from 'node:net'
import { z } from 'zod'
import { mediaSettings, type MediaSettings } from '../media/settings.js'
import { proxySettings, type ProxySettings } from '../proxy/proxy-settings.js'
import { bool, int, pickSettings, type SliceOf } from '../settings/fields.js'
import type { StorageSettings } from '../storage/settings.js'

/** Hosts SANDBOX_URL may name over plain http: the sandbox is a loopback server (src/sandbox). */
const LOOPBACK = new net.BlockList()
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4')
LOOPBACK.addAddress('::1', 'ipv6')

/**
 * The gateway trusts whatever root key and CA the sandbox's `/trust` names, so that answer must not be readable or
 * changeable on the way: a loopback address, or https. An unparsable value passes here for `.url()` to name.
 */
function isSandboxUrlSafe(value: string): boolean {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return true
  }
  if (url.protocol === 'https:') return true
  if (url.protocol !== 'http:') return false
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase()
  if (host === 'localhost') return true
  const kind = net.isIP(host)
  return kind !== 0 && LOOPBACK.check(host, kind === 4 ? 'ipv4' : 'ipv6')
}

export const PLATFORM_SETTINGS = {
  /** The platform sandbox instead of the platform: http on loopback (127.0.0.0/8, ::1, localhost) or https only. */
  SANDBOX_URL: z
    .string()
    .url()
    .refine(isSandboxUrlSafe, 'expected http on a loopback address (127.0.0.0/8, ::1, localhost) or an https URL')
    .optional(),
  /** How long POST /message and POST /status wait for the platform's server ack. */
  ACK_TIMEOUT_MS: int(20_000, 1),
  /** Timeout for platform queries (groups, channels, privacy). */
  QUERY_TIMEOUT_MS: int(20_000, 1),
  /** Persisted-query id of the platform's "subscribed newsletters" query (the platform rotates these). */
  CHANNEL_LIST_QUERY_ID: z.string().default('6388546374527196'),
  /**
   * The most bytes of posts one GET /channel/message page carries (their JSON): a page holds up to the spec's 100
   * posts, and stops early before the post that would pass this (always at least one post); its `before` then
   * continues from there (README: Limits).
   */
  CHANNEL_PAGE_MAX_BYTES: int(1024 * 1024, 1),
  /** Group pictures fetched at once, and how long a fetched picture URL is reused. */
  PICTURE_CONCURRENCY: int(4, 1),
  PICTURE_CACHE_MS: int(10 * 60_000, 0),
  /**
   * Check the platform's signatures (Noise certificate chain, the phone's account signature at pairing) that
   * Baileys rc14 skips. Only set false to measure the check's cost or to compare behaviour deliberately.
   */
  VERIFY_PLATFORM_SIGNATURES: bool(true),
}

export type PlatformSettings = SliceOf<typeof PLATFORM_SETTINGS>

export const platformSettings = (values: PlatformSettings): PlatformSettings => pickSettings(values, PLATFORM_SETTINGS)

/**
 * What one link reads (the platform port's `LinkOptions.settings`): the platform's slice, media's (downloads,
 * thumbnails, uploads, the DNS that proxy hosts are resolved with too), the proxy's, and how long sent messages are
 * kept for retry receipts.
 */
export type LinkSettings = PlatformSettings &
  MediaSettings &
  ProxySettings &
  Pick<StorageSettings, 'RETRY_STORE_MAX_AGE_MS'>

/** Exactly a link's settings out of a shard's. */
export const linkSettings = (values: LinkSettings): LinkSettings => ({
  ...platformSettings(values),
  ...mediaSettings(values),
  ...proxySettings(values),
  RETRY_STORE_MAX_AGE_MS: values.RETRY_STORE_MAX_AGE_MS,
})
