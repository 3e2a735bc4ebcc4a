/**
 * @module http/openapi/conditional
 * How the OpenAPI document describes the waiting GET /session and GET /session/qr (src/http/session-wait): the
 * `If-None-Match` header, the `wait` query parameter, the ETag of every 200, the 304, and the 429 of the wait limits.
 */
import { z } from 'zod'
import type { ZodOpenApiResponseObject, ZodOpenApiResponsesObject } from 'zod-openapi'
import { RULE } from '../schemas/validation-lines.js'
import { errorWith, messageOf, RETRY_AFTER_HEADER } from './responses.js'

export const ifNoneMatchHeader = {
  'if-none-match': z
    .string()
    .optional()
    .describe(
      'The `ETag` of the answer the client holds. It names the current one: 304 at once, or with `wait`, an ' +
        'answer as soon as it differs. It does not: 200 at once',
    ),
}

export const waitQuerySchema = z.object({
  wait: z
    .int()
    .min(0)
    .optional()
    .describe(
      'With `If-None-Match` naming the current answer: seconds to wait for it to change (cut to ' +
        `SESSION_WAIT_MAX_SECONDS, 30 by default). Anything but a whole number is 400 \`wait ${RULE.WAIT}\``,
    ),
})

const etagHeader = {
  ETag: {
    description: 'Strong validator of this exact body (the same state has the same ETag on every node)',
    schema: { type: 'string' as const },
  },
}

/** An operation's responses, waiting: its 200 with the ETag header, plus the 304 and the 429 of the waits. */
export function conditional(responses: ZodOpenApiResponsesObject): ZodOpenApiResponsesObject {
  const success = (responses as Record<string, ZodOpenApiResponseObject>)['200']!
  return {
    ...responses,
    200: { ...success, headers: { ...success.headers, ...etagHeader } },
    304: {
      description:
        '`If-None-Match` names the current answer: at once without `wait`, else when the wait ended with ' +
        'nothing changed (also when the session moved to another node: ask again). No body',
      headers: etagHeader,
    },
    429: {
      ...errorWith(
        [messageOf('WAITS_PER_SESSION'), messageOf('WAITS_PER_CLIENT'), messageOf('WAITS_PER_PROCESS')].join(', ') +
          ': a waiting request over one of its bounds (SESSION_WAITS_PER_SESSION, _PER_CLIENT, _PER_PROCESS); a ' +
          'request without `wait` is never refused',
      ),
      headers: RETRY_AFTER_HEADER,
    },
  }
}
