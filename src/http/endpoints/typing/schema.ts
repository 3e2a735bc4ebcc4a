/**
 * @module http/endpoints/typing/schema
 * POST /typing: `phone` or `group` (group wins), `type` optional: `text` (default, 'typing') or `audio`
 * ('recording audio'). Destination line first, as for /message.
 */
import { z } from 'zod'
import { ERRORS, GatewayError, validationFailed } from '../../../protocol/errors.js'
import type { CommandOf } from '../../../protocol/commands.js'
import type { TypingKind } from '../../../protocol/spec-types.js'
import { bodyObject } from '../../schemas/body.js'
import { typingDestination } from '../../schemas/destination.js'
import { check } from '../../schemas/format.js'

const TYPING_KINDS = ['text', 'audio'] as const satisfies readonly TypingKind[]

export const typingSchema = z.object({
  type: z.preprocess(v => (v === null || v === '' ? undefined : v), z.enum(TYPING_KINDS).default('text')),
})

/** Validates a POST /typing body into its command; throws the 400 `GatewayError` with every failing line. */
export function parseTyping(rawBody: unknown): CommandOf<'sendTyping'> {
  const body = bodyObject(rawBody)
  if (!body.ok) throw validationFailed(body.messages)
  const destination = typingDestination(body.value)
  const kind = check(typingSchema, body.value)
  if (destination === undefined && kind.ok) throw new GatewayError('INVALID_TYPING_DESTINATION')
  if (destination === undefined || !kind.ok) {
    const lines: string[] = destination === undefined ? [ERRORS.INVALID_TYPING_DESTINATION.message] : []
    if (!kind.ok) lines.push(...kind.messages)
    throw validationFailed(lines)
  }
  return { type: 'sendTyping', destination, kind: kind.value.type }
}
