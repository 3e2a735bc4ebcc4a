/**
 * @module http/limits/text-length
 * TEXT_MAX_CHARS for a message's or status's `text` (the body of a text, the caption of media). Counted in UTF-16
 * code units, as the platform's clients count them. Checked after the schema, so the line reads like the others:
 * 400 `text must be shorter than or equal to 65536 characters`.
 */
import { validationFailed } from '../../protocol/errors.js'
import { RULE } from '../schemas/validation-lines.js'
import { fill } from '../../protocol/template.js'

/** `content` is a parsed MessageContent or StatusContent; only text and media types carry `text`. */
export function assertTextLength(content: object, max: number): void {
  const text = (content as { text?: unknown }).text
  if (typeof text === 'string' && text.length > max) {
    throw validationFailed([`text ${fill(RULE.MAX_CHARS, { max })}`])
  }
}
