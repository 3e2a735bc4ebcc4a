/**
 * @module http/endpoints/typing/openapi
 * POST /typing in the OpenAPI document.
 */
import { z } from 'zod'
import type { ZodOpenApiPathsObject } from 'zod-openapi'
import { authenticated, jsonRequestBody } from '../../openapi/operations.js'
import { groupField, phoneField } from '../../openapi/request-bodies.js'
import { sessionIdOnlySchema } from '../../openapi/response-schemas.js'
import { AUTHENTICATED_WITH_BODY, ok, responses, restrictedNoEnd } from '../../openapi/responses.js'
import { typingSchema } from './schema.js'

const typingBodySchema = z.object({ phone: phoneField(), group: groupField(), ...typingSchema.shape }).meta({
  id: 'Typing',
  description: '`group` wins over `phone`. `type` is `text` (typing, the default) or `audio` (recording audio).',
})

export const typingPaths: ZodOpenApiPathsObject = {
  '/typing': {
    post: authenticated({
      operationId: 'sendTyping',
      tags: ['Messages'],
      summary: 'Show typing or recording for 5 seconds',
      requestBody: jsonRequestBody(typingBodySchema),
      responses: {
        ...responses(ok(sessionIdOnlySchema, "The session's own id (not a message ID)"), ...AUTHENTICATED_WITH_BODY),
        403: restrictedNoEnd(),
      },
    }),
  },
}
