/**
 * @module http/schemas/params
 * Query and path parameters. The spec fixes the missing-parameter message as two lines, `groupId should not be
 * empty` and `groupId must be a string` (both rules fail on a missing value); a repeated parameter
 * (`?groupId=a&groupId=b`, parsed as an array) is `must be a string` alone, an empty one `should not be empty`.
 */
import { RULE } from './validation-lines.js'
import type { Checked } from './format.js'

/** A parameter that must be there, once, and not empty. */
export function requiredParam(name: string, value: unknown): Checked<string> {
  if (value === undefined) return { ok: false, messages: [`${name} ${RULE.EMPTY}`, `${name} ${RULE.STRING}`] }
  if (typeof value !== 'string') return { ok: false, messages: [`${name} ${RULE.STRING}`] }
  if (value === '') return { ok: false, messages: [`${name} ${RULE.EMPTY}`] }
  return { ok: true, value }
}
