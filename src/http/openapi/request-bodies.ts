/**
 * @module http/openapi/request-bodies
 * The pieces the request bodies of POST /message, /status and /typing share in the OpenAPI document. Bodies are
 * assembled from the same zod schemas that validate requests (each endpoint's schema.ts): each `type` becomes one
 * variant of a `oneOf` keyed by `type`, made of the destination fields plus that type's own schema. The spec's value
 * rules that JSON Schema cannot carry (destination precedence, phone normalisation, non-zero coordinates) are in
 * descriptions.
 */
import { z } from 'zod'
import { GROUP_ID } from '../schemas/ids.js'

const PHONE_RULE =
  'International format; a leading `+`, spaces, dashes, dots and parentheses are stripped, ' + 'leaving 6 to 15 digits'

export const phoneField = () => z.string().describe(PHONE_RULE).optional()
export const groupField = () =>
  z.string().regex(GROUP_ID).describe('Group ID `<group_id>@g.us`; wins over the other targets').optional()

const capitalised = (word: string) => word[0]?.toUpperCase() + word.slice(1)

/** One `oneOf` variant per type: `{ ...target, type: <literal>, ...fields of that type }`. */
export function variantsByType<T extends string>(
  types: readonly T[],
  content: Record<T, z.ZodObject>,
  target: z.ZodRawShape,
  suffix: string,
) {
  const variants = types.map(type =>
    z
      .object({ ...target, type: z.literal(type), ...content[type].shape })
      .meta({ id: `${capitalised(type)}${suffix}` }),
  )
  return z.discriminatedUnion('type', variants as unknown as [z.ZodObject, ...z.ZodObject[]])
}
