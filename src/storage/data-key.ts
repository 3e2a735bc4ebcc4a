/**
 * @module storage/data-key
 * The DATA_KEY setting: 32 random bytes written as 64 hex characters or as base64 (44 characters with `=`, or the
 * 43 of unpadded base64/base64url). Anything else is refused at start, before a single value is written with it.
 *
 * @example
 * // generate one:  node -e "console.log(require('crypto').randomBytes(32).toString('base64'))"
 * parseDataKey('3q2+7w...')   // Buffer(32)
 */
export const DATA_KEY_FORMAT = 'must be 32 bytes written as 64 hex characters or as base64 (44 characters)'

const HEX = /^[0-9a-fA-F]{64}$/
const BASE64 = /^[A-Za-z0-9+/]{43}=?$/
const BASE64URL = /^[A-Za-z0-9_-]{43}=?$/

/** The 32 key bytes, or undefined when the text is not one of the accepted spellings. */
export function parseDataKey(text: string): Buffer | undefined {
  const trimmed = text.trim()
  if (HEX.test(trimmed)) return Buffer.from(trimmed, 'hex')
  if (BASE64.test(trimmed)) return Buffer.from(trimmed, 'base64')
  if (BASE64URL.test(trimmed)) return Buffer.from(trimmed, 'base64url')
  return undefined
}

export const isDataKey = (text: string): boolean => parseDataKey(text)?.length === 32

/** A DATA_DIR that cannot be opened with the DATA_KEY given (or without one). Start-up prints the message and stops. */
export class DataKeyError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'DataKeyError'
  }
}
