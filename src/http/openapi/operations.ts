/**
 * @module http/openapi/operations
 * What the endpoints' OpenAPI operations are written with besides their responses (./responses.ts): the two
 * session headers of a guarded operation, and a required JSON request body.
 */
import { z } from 'zod'
import type { ZodOpenApiOperationObject } from 'zod-openapi'
import { jsonContent } from './responses.js'

/** Headers `id` and `session-id`: every endpoint but POST /session (SPEC: Authentication). */
const sessionHeadersSchema = z.object({
  id: z.string().min(1).describe('The `id` returned by POST /session'),
  'session-id': z.string().min(1).describe('The `sessionId` returned by POST /session'),
})

/** A guarded operation: the two session headers (and `headers`, any others it reads) plus whatever else it takes. */
export const guarded = (
  operation: ZodOpenApiOperationObject,
  headers: z.ZodRawShape = {},
): ZodOpenApiOperationObject => ({
  ...operation,
  requestParams: { ...operation.requestParams, header: sessionHeadersSchema.extend(headers) },
})

export const jsonRequestBody = (schema: z.ZodType) => ({ required: true, content: jsonContent(schema) })
