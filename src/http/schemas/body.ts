/**
 * @module http/schemas/body
 * The parsed JSON body as a plain object. No body at all validates like `{}` (every required field reports
 * `should not be empty`); a JSON array or scalar is refused outright.
 */
import { LINE } from './validation-lines.js'
import type { Checked } from './format.js'

export function bodyObject(body: unknown): Checked<Record<string, unknown>> {
  if (body === undefined || body === null) return { ok: true, value: {} }
  if (typeof body !== 'object' || Array.isArray(body)) return { ok: false, messages: [LINE.BODY_NOT_OBJECT] }
  return { ok: true, value: body as Record<string, unknown> }
}
