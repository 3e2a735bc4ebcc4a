/**
 * @module http/openapi/response-schemas
 * What the response schemas of the OpenAPI document share: the error body, the `{ id }` body, lists, times, and
 * `shapeOf`. Response schemas are for the document only (routes build their bodies from the types in
 * src/protocol/spec-types.ts); each endpoint's openapi.ts ties its own to their TypeScript type with `shapeOf`, so
 * a field added to or removed from a type fails the type-check there. Objects are strict
 * (`additionalProperties: false`): the gateway answers with exactly the spec's fields, and the end-to-end response
 * validator holds it to that.
 */
import { z } from 'zod'
import { ERRORS } from '../../protocol/errors.js'
import type { ErrorBody } from '../errors.js'

/** Keeps a schema's own type (for zod-openapi) while checking it parses to `T`. */
export const shapeOf =
  <T>() =>
  <S extends z.ZodType<T>>(schema: S): S =>
    schema

export const isoTime = () => z.string().describe('ISO 8601 time')

export const errorBodySchema = shapeOf<ErrorBody>()(
  z
    .strictObject({
      statusCode: z.int().min(400).max(599).describe('The HTTP status, repeated'),
      message: z.string().describe('What went wrong; several validation failures are joined by a line break'),
    })
    .meta({ id: 'Error', example: { statusCode: 404, message: ERRORS.SESSION_NOT_FOUND.message } }),
)

/** DELETE /session and POST /typing both answer with the session's own id. */
export const sessionIdOnlySchema = z.strictObject({ id: z.string() }).meta({ id: 'SessionId' })

export const listOf = <S extends z.ZodType>(item: S, id: string) => z.strictObject({ docs: z.array(item) }).meta({ id })
