/**
 * @module http/schemas/phone
 * Phone numbers arrive in many human formats (`+55 (11) 99999-9999`, `55.11.99999.9999`). The gateway keeps
 * digits only: a leading `+`, spaces, dashes, parentheses and dots are stripped; what is left must be 6 to 15
 * digits (E.164 allows at most 15). The platform's own JID suffix is not accepted here.
 */
const SEPARATORS = /[\s\-().]/g
const DIGITS = /^\d{6,15}$/

/** Digits only, or undefined when the value is not a phone number. */
export function normalisePhone(raw: string): string | undefined {
  const trimmed = raw.trim()
  const unsigned = trimmed.startsWith('+') ? trimmed.slice(1) : trimmed
  const digits = unsigned.replace(SEPARATORS, '')
  return DIGITS.test(digits) ? digits : undefined
}
