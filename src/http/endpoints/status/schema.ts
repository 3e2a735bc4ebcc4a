/**
 * @module http/endpoints/status/schema
 * POST /status: `type` (text, image, video), then the fields of that type; `text` is the caption for media.
 */
import { z } from 'zod'
import { validationFailed } from '../../../protocol/errors.js'
import { STATUS_TYPES, type StatusContent } from '../../../protocol/spec-types.js'
import { bodyObject } from '../../schemas/body.js'
import { optionalString, requiredString } from '../../schemas/fields.js'
import { check, type Checked } from '../../schemas/format.js'
import { imageSchema, toImage, toVideo, videoSchema } from '../../schemas/media.js'

const typeSchema = z.object({ type: z.enum(STATUS_TYPES) })

/** The fields each `type` needs; also the source of the OpenAPI request body (./openapi.ts). */
export const contentSchemas = {
  text: z.object({ text: requiredString() }),
  image: z.object({ image: imageSchema, text: optionalString() }),
  video: z.object({ video: videoSchema, text: optionalString() }),
}

function content(type: StatusContent['type'], body: unknown): Checked<StatusContent> {
  switch (type) {
    case 'text': {
      const r = check(contentSchemas.text, body)
      return r.ok ? { ok: true, value: { type, text: r.value.text } } : r
    }
    case 'image': {
      const r = check(contentSchemas.image, body)
      if (!r.ok) return r
      const value: StatusContent = { type, image: toImage(r.value.image) }
      if (r.value.text !== undefined) value.text = r.value.text
      return { ok: true, value }
    }
    case 'video': {
      const r = check(contentSchemas.video, body)
      if (!r.ok) return r
      const value: StatusContent = { type, video: toVideo(r.value.video) }
      if (r.value.text !== undefined) value.text = r.value.text
      return { ok: true, value }
    }
  }
}

/** Validates a POST /status body; throws the 400 `GatewayError` with every failing line. */
export function parsePostStatus(rawBody: unknown): StatusContent {
  const body = bodyObject(rawBody)
  if (!body.ok) throw validationFailed(body.messages)
  const type = check(typeSchema, body.value)
  if (!type.ok) throw validationFailed(type.messages)
  const parsed = content(type.value.type, body.value)
  if (!parsed.ok) throw validationFailed(parsed.messages)
  return parsed.value
}
