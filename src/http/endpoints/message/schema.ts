/**
 * @module http/endpoints/message/schema
 * POST /message. Lines come in this order: destination first (`invalid phone, group or newsletter`), then
 * `type`, then the fields of the chosen type; type-specific fields are checked only once `type` is valid. A body
 * whose only problem is its destination fails with INVALID_DESTINATION, anything else with VALIDATION (both 400).
 */
import { z } from 'zod'
import { ERRORS, GatewayError, validationFailed } from '../../../protocol/errors.js'
import type { CommandOf } from '../../../protocol/commands.js'
import { MESSAGE_TYPES, type MessageContent } from '../../../protocol/spec-types.js'
import { bodyObject } from '../../schemas/body.js'
import { messageDestination } from '../../schemas/destination.js'
import { check, type Checked } from '../../schemas/format.js'
import {
  audioSchema,
  contactSchema,
  documentSchema,
  imageSchema,
  locationSchema,
  toAudio,
  toContact,
  toDocument,
  toImage,
  toLocation,
  toVideo,
  videoSchema,
} from '../../schemas/media.js'
import { optionalString, requiredString } from '../../schemas/fields.js'

const typeSchema = z.object({ type: z.enum(MESSAGE_TYPES) })

/** The fields each `type` needs; also the source of the OpenAPI request body (./openapi.ts). */
export const contentSchemas = {
  text: z.object({ text: requiredString() }),
  image: z.object({ image: imageSchema, text: optionalString() }),
  video: z.object({ video: videoSchema, text: optionalString() }),
  audio: z.object({ audio: audioSchema }),
  document: z.object({ document: documentSchema, text: optionalString() }),
  location: z.object({ location: locationSchema }),
  contact: z.object({ contact: contactSchema }),
}

function withCaption<C extends MessageContent>(content: C, caption: string | undefined): C {
  if (caption !== undefined) (content as { text?: string }).text = caption
  return content
}

function content(type: MessageContent['type'], body: unknown): Checked<MessageContent> {
  const map = <T>(r: Checked<T>, build: (v: T) => MessageContent): Checked<MessageContent> =>
    r.ok ? { ok: true, value: build(r.value) } : r
  switch (type) {
    case 'text':
      return map(check(contentSchemas.text, body), v => ({ type, text: v.text }))
    case 'image':
      return map(check(contentSchemas.image, body), v => withCaption({ type, image: toImage(v.image) }, v.text))
    case 'video':
      return map(check(contentSchemas.video, body), v => withCaption({ type, video: toVideo(v.video) }, v.text))
    case 'audio':
      return map(check(contentSchemas.audio, body), v => ({ type, audio: toAudio(v.audio) }))
    case 'document':
      return map(check(contentSchemas.document, body), v =>
        withCaption({ type, document: toDocument(v.document) }, v.text),
      )
    case 'location':
      return map(check(contentSchemas.location, body), v => ({ type, location: toLocation(v.location) }))
    case 'contact':
      return map(check(contentSchemas.contact, body), v => ({ type, contact: toContact(v.contact) }))
  }
}

/** Validates a POST /message body into its command; throws the 400 `GatewayError` with every failing line. */
export function parseSendMessage(rawBody: unknown): CommandOf<'sendMessage'> {
  const body = bodyObject(rawBody)
  if (!body.ok) throw validationFailed(body.messages)
  const destination = messageDestination(body.value)
  const lines: string[] = destination === undefined ? [ERRORS.INVALID_DESTINATION.message] : []
  const type = check(typeSchema, body.value)
  let parsed: Checked<MessageContent> | undefined
  if (type.ok) parsed = content(type.value.type, body.value)
  else lines.push(...type.messages)
  if (parsed !== undefined && !parsed.ok) lines.push(...parsed.messages)
  if (destination && parsed?.ok) return { type: 'sendMessage', destination, content: parsed.value }
  if (destination === undefined && lines.length === 1) throw new GatewayError('INVALID_DESTINATION')
  throw validationFailed(lines)
}
