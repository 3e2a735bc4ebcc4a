/**
 * @module security/log-redaction
 * The safety net under the rule "logs never hold credentials, keys, QR strings or message content" (SECURITY.md).
 * The code logs ids, codes and reasons only, and Baileys' own logger is capped at warn (socket-config.ts); these
 * pino redaction paths catch the rest should a field of that kind ever be logged, at the top level or one object
 * down (`{ err }`, `{ msg }`, `{ creds }`...). URLs keep their origin and path and lose query and fragment (where
 * signed-URL tokens live); a proxy keeps all but its credential (its password, or a username given alone); every
 * other match becomes `[redacted]`.
 */
import type { LoggerOptions } from 'pino'
import { maskProxy } from '../proxy/proxy-url.js'

const SECRET_FIELDS = [
  'sessionId',
  'authorization',
  'cookie',
  'headers["session-id"]',
  'headers["view-token"]',
  'qr',
  'qrcode',
  'creds',
  'keys',
  'private',
  'privKey',
  'noiseKey',
  'signedIdentityKey',
  'signedPreKey',
  'advSecretKey',
  'DATA_KEY',
  'CREATE_SESSION_TOKEN',
  'text',
  'caption',
  'conversation',
  'extendedTextMessage',
  'vcard',
  'thumbnail',
  'jpegThumbnail',
]
const URL_FIELDS = ['url', 'thumbnailUrl']
/** A session's proxy: shown without its password (proxy/proxy-url.ts), anything else redacted. */
const PROXY_FIELDS = ['proxy', 'proxyUrl', 'SESSION_PROXY_DEFAULT']

const everywhere = (fields: string[]): string[] => fields.flatMap(f => [f, `*.${f}`])

/** `https://host/path?token=x` → `https://host/path`; anything that is not a URL is redacted whole. */
function withoutQuery(value: unknown): string {
  if (typeof value !== 'string') return '[redacted]'
  try {
    const url = new URL(value)
    return `${url.origin}${url.pathname}`
  } catch {
    return '[redacted]'
  }
}

/** `socks5://alice:s3cret@host:1080` → `socks5://alice:***@host:1080`, `socks5://tok3n@host` → `socks5://***@host:1080`;
 * null stays null (no proxy). */
function masked(value: unknown): unknown {
  if (value === null) return null
  return typeof value === 'string' ? maskProxy(value) : '[redacted]'
}

/** The `redact` option of every gateway logger (main thread and shard workers). */
export const logRedaction: NonNullable<LoggerOptions['redact']> = {
  paths: everywhere([...SECRET_FIELDS, ...URL_FIELDS, ...PROXY_FIELDS]),
  censor: (value: unknown, path: string[]) => {
    const field = path.at(-1) ?? ''
    if (URL_FIELDS.includes(field)) return withoutQuery(value)
    return PROXY_FIELDS.includes(field) ? masked(value) : '[redacted]'
  },
}
