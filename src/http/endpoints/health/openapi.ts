/**
 * @module http/endpoints/health/openapi
 * GET /healthz and GET /readyz in the OpenAPI document: plain paths, no headers.
 */
import { z } from 'zod'
import type { ZodOpenApiPathsObject } from 'zod-openapi'
import { jsonContent, ok } from '../../openapi/responses.js'

const healthSchema = z.strictObject({ status: z.literal('ok') }).meta({ id: 'Health' })
const readySchema = z.strictObject({ status: z.literal('ready') }).meta({ id: 'Ready' })
const notReadySchema = z
  .object({
    status: z.string().describe('Why the gateway is not ready yet, e.g. `starting`'),
  })
  .meta({ id: 'NotReady' })

export const healthPaths: ZodOpenApiPathsObject = {
  '/healthz': {
    get: {
      operationId: 'health',
      tags: ['Operations'],
      summary: 'Liveness probe',
      responses: { 200: ok(healthSchema, 'The process is up') },
    },
  },
  '/readyz': {
    get: {
      operationId: 'ready',
      tags: ['Operations'],
      summary: 'Readiness probe',
      responses: {
        200: ok(readySchema, 'Ready to serve'),
        503: { description: 'Not ready yet', content: jsonContent(notReadySchema) },
      },
    },
  },
}
