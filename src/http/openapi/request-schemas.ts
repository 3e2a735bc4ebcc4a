/**
 * @module http/openapi/request-schemas
 * Request bodies and parameters for the OpenAPI document, assembled from the same zod schemas that validate
 * requests (src/http/schemas): each `type` of POST /message and POST /status becomes one variant of a `oneOf`
 * keyed by `type`, made of the destination fields plus that type's own schema. The spec's value rules that JSON
 * Schema cannot carry (destination precedence, phone normalisation, non-zero coordinates) are in descriptions.
 */
import { z } from 'zod'
import { MESSAGE_TYPES, STATUS_TYPES } from '../../protocol/spec-types.js'
import { CHANNEL_ID, GROUP_ID } from '../schemas/ids.js'
import { contentSchemas as messageContent } from '../schemas/message.js'
import { contentSchemas as statusContent } from '../schemas/status.js'
import { typingSchema } from '../schemas/typing.js'

const PHONE_RULE = 'International format; a leading `+`, spaces, dashes, dots and parentheses are stripped, ' +
  'leaving 6 to 15 digits'

const phone = () => z.string().describe(PHONE_RULE).optional()
const group = () => z.string().regex(GROUP_ID).describe('Group ID `<group_id>@g.us`; wins over the other targets').optional()

const messageTarget = {
  phone: phone(),
  group: group(),
  newsletter: z.string().regex(CHANNEL_ID)
    .describe('Channel ID `<channel_id>@newsletter` the account owns or administers; wins over `phone`').optional(),
}

const capitalised = (word: string) => word[0]?.toUpperCase() + word.slice(1)

/** One `oneOf` variant per type: `{ ...target, type: <literal>, ...fields of that type }`. */
function variantsByType<T extends string>(
  types: readonly T[], content: Record<T, z.ZodObject>, target: z.ZodRawShape, suffix: string,
) {
  const variants = types.map(type =>
    z.object({ ...target, type: z.literal(type), ...content[type].shape }).meta({ id: `${capitalised(type)}${suffix}` }))
  return z.discriminatedUnion('type', variants as unknown as [z.ZodObject, ...z.ZodObject[]])
}

export const sendMessageBodySchema = variantsByType(MESSAGE_TYPES, messageContent, messageTarget, 'Message')
  .meta({
    id: 'SendMessage',
    description: 'Exactly one target is used: `group`, else `newsletter`, else `phone` (the first one filled).',
  })

export const postStatusBodySchema = variantsByType(STATUS_TYPES, statusContent, {}, 'Status').meta({ id: 'PostStatus' })

export const typingBodySchema = z.object({ phone: phone(), group: group(), ...typingSchema.shape }).meta({
  id: 'Typing',
  description: '`group` wins over `phone`. `type` is `text` (typing, the default) or `audio` (recording audio).',
})

/** Headers `id` and `session-id`: every endpoint but POST /session (SPEC: Authentication). */
export const sessionHeadersSchema = z.object({
  id: z.string().min(1).describe('The `id` returned by POST /session'),
  'session-id': z.string().min(1).describe('The `sessionId` returned by POST /session'),
})

export const viewTokenHeaderSchema = z.object({
  'view-token': z.string().min(1).describe('The token in the `#view=` fragment of a link from POST /session/view-link'),
})

export const groupIdSchema = z.string().regex(GROUP_ID).describe('Group ID `<group_id>@g.us`')

export const channelQuerySchema = z.object({
  channelId: z.string().regex(CHANNEL_ID).describe('Channel ID `<channel_id>@newsletter`'),
  before: z.int().min(0).optional()
    .describe('The `before` of the previous page (a non-negative integer); absent for the newest page; 0 answers an empty last page'),
})
