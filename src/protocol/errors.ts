/**
 * @module protocol/errors
 * The error codes of the gateway. Every failure that reaches a client is a `GatewayError` with a stable
 * `code`; `src/http/errors.ts` maps codes to HTTP statuses in one place. Errors cross worker threads as plain
 * `{ code, message }` data (class instances lose their fields over `postMessage`), and are rebuilt with `fromWire`.
 * The words of every message are in ./messages.ts.
 */
import { ERROR_MESSAGE, fill, MESSAGE_TEMPLATE } from './messages.js'

/** Code → HTTP status. Messages (./messages.ts) are fixed where the spec fixes them, dynamic where it shows a
 * pattern. */
export const ERROR_STATUS = {
  INVALID_HEADER: 400,
  VALIDATION: 400,
  INVALID_DESTINATION: 400,
  INVALID_TYPING_DESTINATION: 400,
  INVALID_JSON: 400,
  MEDIA_URL_FORBIDDEN: 400,
  PROXY_REFUSED: 400,
  UNAUTHORIZED: 401,
  MEDIA_TOO_LARGE: 400,
  SESSION_NOT_FOUND: 404,
  NOT_FOUND: 404,
  VIEW_LINK_NOT_FOUND: 404,
  SESSION_ALREADY_PAIRED: 409,
  VIEW_LINK_USED: 410,
  BODY_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  TOO_MANY_REQUESTS: 429,
  SESSION_NOT_CONNECTED: 500,
  MEDIA_DOWNLOAD_FAILED: 500,
  CHANNEL_NOT_FOUND: 500,
  GROUP_NOT_FOUND: 500,
  CHANNEL_NOT_OWNED: 500,
  CONTACTS_NOT_SYNCED: 500,
  STATUS_ONLY_SHARE_EMPTY: 500,
  PLATFORM_REJECTED: 500,
  PLATFORM_TIMEOUT: 500,
  PLATFORM_CONNECTION_LOST: 500,
  WORKER_CRASHED: 500,
  INTERNAL: 500,
  OVERLOADED: 503,
  SESSIONS_FULL: 503,
  STORAGE_UNAVAILABLE: 503,
  SESSION_MOVING: 503,
  NODE_UNREACHABLE: 503,
  NODE_BUSY: 503,
  SESSION_CONNECTING: 503,
} as const

export type ErrorCode = keyof typeof ERROR_STATUS

/** What crosses a thread boundary. */
export interface WireError {
  code: ErrorCode
  message: string
}

export class GatewayError extends Error {
  readonly code: ErrorCode
  /** Seconds the client should wait before retrying (the `Retry-After` header of a 429 or 503). */
  readonly retryAfterSeconds: number | undefined
  constructor(code: ErrorCode, message?: string, retryAfterSeconds?: number) {
    super(message ?? (ERROR_MESSAGE as Partial<Record<ErrorCode, string>>)[code] ?? code)
    this.code = code
    this.name = 'GatewayError'
    this.retryAfterSeconds = retryAfterSeconds
  }
  get status(): number {
    return ERROR_STATUS[this.code]
  }
  toWire(): WireError {
    return { code: this.code, message: this.message }
  }
}

/** `500 error parser file from url 404 Not Found`: the spec's media-download failure. */
export const mediaDownloadFailed = (detail: string): GatewayError =>
  new GatewayError('MEDIA_DOWNLOAD_FAILED', fill(MESSAGE_TEMPLATE.MEDIA_DOWNLOAD_FAILED, { detail }))

/** `400 image.url leads to a private or local address`: the SSRF guard refused a media or thumbnail URL (or one
 * of its redirects). `field` is the request field the URL came from. */
export const mediaUrlForbidden = (field = 'media url'): GatewayError =>
  new GatewayError('MEDIA_URL_FORBIDDEN', fill(MESSAGE_TEMPLATE.MEDIA_URL_FORBIDDEN, { path: field }))
/** `400 image is larger than the limit of 16777216 bytes`: a media file over its type's cap (README: Limits). */
export const mediaTooLarge = (kind: string, maxBytes: number): GatewayError =>
  new GatewayError('MEDIA_TOO_LARGE', fill(MESSAGE_TEMPLATE.MEDIA_TOO_LARGE, { kind, max: maxBytes }))

/** `400 image is larger than the limit of 100000000 pixels (20000 x 20000)`: an image over MEDIA_MAX_PIXELS. */
export const mediaTooManyPixels = (kind: string, maxPixels: number, width: number, height: number): GatewayError =>
  new GatewayError(
    'MEDIA_TOO_LARGE',
    fill(MESSAGE_TEMPLATE.MEDIA_TOO_MANY_PIXELS, { kind, max: maxPixels, width, height }),
  )

/** `503 session limit reached ...`: the process holds MAX_SESSIONS sessions. */
export const sessionsFull = (max: number): GatewayError =>
  new GatewayError('SESSIONS_FULL', fill(MESSAGE_TEMPLATE.SESSIONS_FULL, { max }))

/** Validation failures: every failing rule, joined by a line break (spec: Errors). */
export const validationFailed = (messages: string[]): GatewayError =>
  new GatewayError('VALIDATION', messages.join('\n'))

export function isWireError(value: unknown): value is WireError {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as WireError).code === 'string' &&
    (value as WireError).code in ERROR_STATUS &&
    typeof (value as WireError).message === 'string'
  )
}

export const fromWire = (e: WireError): GatewayError => new GatewayError(e.code, e.message)

/** Anything thrown → a wire error; unknown failures become 500 `internal server error` (details go to the log). */
export function toWireError(err: unknown): WireError {
  if (err instanceof GatewayError) return err.toWire()
  if (isWireError(err)) return { code: err.code, message: err.message }
  return { code: 'INTERNAL', message: ERROR_MESSAGE.INTERNAL }
}
