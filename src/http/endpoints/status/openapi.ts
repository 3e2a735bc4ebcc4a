/**
 * @module http/endpoints/status/openapi
 * POST /status in the OpenAPI document: one body variant per `type`, built from the validating schemas.
 */
import { z } from 'zod'
import type { ZodOpenApiPathsObject } from 'zod-openapi'
import { STATUS_TYPES } from '../../../protocol/spec-types.js'
import { authenticated, jsonRequestBody } from '../../openapi/operations.js'
import { variantsByType } from '../../openapi/request-bodies.js'
import { AUTHENTICATED_WITH_BODY, ok, responses } from '../../openapi/responses.js'
import { contentSchemas } from './schema.js'

const postStatusBodySchema = variantsByType(STATUS_TYPES, contentSchemas, {}, 'Status').meta({ id: 'PostStatus' })

const statusIdSchema = z.strictObject({ statusId: z.string() }).meta({ id: 'StatusId' })

export const statusPaths: ZodOpenApiPathsObject = {
  '/status': {
    post: authenticated({
      operationId: 'postStatus',
      tags: ['Messages'],
      summary: 'Post a status',
      requestBody: jsonRequestBody(postStatusBodySchema),
      responses: responses(ok(statusIdSchema, 'The platform accepted the status'), ...AUTHENTICATED_WITH_BODY),
    }),
  },
}
