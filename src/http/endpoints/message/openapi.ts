/**
 * @module http/endpoints/message/openapi
 * POST /message in the OpenAPI document: one body variant per `type`, built from the validating schemas.
 */
import { z } from 'zod'
import type { ZodOpenApiPathsObject } from 'zod-openapi'
import { MESSAGE_TYPES } from '../../../protocol/spec-types.js'
import { authenticated, jsonRequestBody } from '../../openapi/operations.js'
import { groupField, phoneField, variantsByType } from '../../openapi/request-bodies.js'
import { AUTHENTICATED_WITH_BODY, ok, responses, restrictedNoEnd } from '../../openapi/responses.js'
import { CHANNEL_ID } from '../../schemas/ids.js'
import { contentSchemas } from './schema.js'

const messageTarget = {
  phone: phoneField(),
  group: groupField(),
  newsletter: z
    .string()
    .regex(CHANNEL_ID)
    .describe('Channel ID `<channel_id>@newsletter` the account owns or administers; wins over `phone`')
    .optional(),
}

const sendMessageBodySchema = variantsByType(MESSAGE_TYPES, contentSchemas, messageTarget, 'Message').meta({
  id: 'SendMessage',
  description: 'Exactly one target is used: `group`, else `newsletter`, else `phone` (the first one filled).',
})

const messageIdSchema = z
  .strictObject({
    messageId: z.string().describe('Set once the platform server acknowledged the message'),
  })
  .meta({ id: 'MessageId' })

export const messagePaths: ZodOpenApiPathsObject = {
  '/message': {
    post: authenticated({
      operationId: 'sendMessage',
      tags: ['Messages'],
      summary: 'Send a message',
      description: 'Answers once the platform server acknowledged the message. Media is downloaded from its URL.',
      requestBody: jsonRequestBody(sendMessageBodySchema),
      responses: {
        ...responses(ok(messageIdSchema, 'The platform accepted the message'), ...AUTHENTICATED_WITH_BODY),
        403: restrictedNoEnd(),
      },
    }),
  },
}
