/**
 * @module http/endpoints/session/openapi
 * POST, GET and DELETE /session and POST /session/reset in the OpenAPI document, with their response bodies.
 */
import { z } from 'zod'
import type { ZodOpenApiPathsObject } from 'zod-openapi'
import { ERRORS } from '../../../protocol/errors.js'
import { RULE } from '../../schemas/validation-lines.js'
import { fill } from '../../../protocol/template.js'
import type { Session } from '../../../protocol/spec-types.js'
import { conditional, ifNoneMatchHeader, waitQuerySchema } from '../../openapi/conditional.js'
import { authenticated } from '../../openapi/operations.js'
import { sessionIdOnlySchema, shapeOf } from '../../openapi/response-schemas.js'
import { errorWith, AUTHENTICATED, ok, quoted, responses } from '../../openapi/responses.js'
import { proxyField } from '../session-proxy/openapi.js'
import type { AccountRestrictions } from '../../../protocol/restrictions.js'
import { restrictionsSchema } from './restrictions-openapi.js'
import { NOT_CONNECTED_REASONS } from '../../../protocol/snapshot.js'

const createdSessionSchema = z
  .strictObject({
    id: z.string().describe('Main session ID, sent as header `id`'),
    sessionId: z.string().describe('Session secret, sent as header `session-id`'),
  })
  .meta({ id: 'CreatedSession' })

const sessionSchema = shapeOf<Session & { restrictions?: AccountRestrictions }>()(
  z
    .strictObject({
      id: z.string(),
      generatedId: z
        .string()
        .describe(
          'Device ID of the connected device (`<number>:<device>@s.whatsapp.net`); empty if it never connected',
        ),
      name: z.string().describe('Name of the connected account; empty when not connected'),
      sessionId: z.string(),
      isConnected: z.boolean(),
      qrcode: z
        .string()
        .describe('QR image as base64 PNG without a `data:` prefix; empty before the first QR and once connected'),
      picture: z.string().describe('Profile picture URL; may be empty'),
      restrictions: restrictionsSchema.optional(),
      reason: z
        .enum(NOT_CONNECTED_REASONS)
        .optional()
        .describe(
          'Not in the spec: why the session is not connected, while it is not and something failed. ' +
            '`client-version-refused`: the platform refuses the web client version (405; PLATFORM_CLIENT_VERSION ' +
            "pins it, or the gateway is looking up the current one); `proxy-refused`: the session's proxy refused " +
            'or failed the connection; `logged-out`: logged out from the phone (a new QR follows); ' +
            '`account-refused`: the platform refuses the account (402/403: banned or restricted); `replaced`: ' +
            'another connection took over the device; `connection-lost`: reconnecting. Changes of it change the ETag.',
        ),
      reasonMessage: z.string().optional().describe('Not in the spec: the same reason in one sentence for a person'),
    })
    .meta({ id: 'Session' }),
)

export const sessionPaths: ZodOpenApiPathsObject = {
  '/session': {
    post: {
      operationId: 'createSession',
      tags: ['Session'],
      summary: 'Create a session',
      description:
        'No headers, no body, as the spec has it (with `CREATE_SESSION_TOKEN` set: `authorization: Bearer <token>`). ' +
        'The QR follows in the background: poll GET /session for it. Not in the spec: an optional JSON body ' +
        '`{"proxy": "socks5://user:pass@host:port"}` sends the session\'s connections through that proxy.',
      requestBody: {
        required: false,
        content: {
          'application/json': {
            schema: z.object({ proxy: proxyField().optional() }),
            // what /docs "Try it out" sends: a body that works (a session with no proxy). Built from the schema, it
            // would carry the proxy field's example, an address that leads nowhere, and the session would never
            // show a QR.
            example: {},
          },
        },
      },
      responses: {
        ...responses(ok(createdSessionSchema, "The new session's credentials"), 401, 413, 415, 429, 500, 503),
        400: errorWith(
          `Only with a body: ${[
            `proxy ${RULE.PROXY_URL}`,
            fill(ERRORS.PRIVATE_ADDRESS.message, { path: 'proxy' }),
            ERRORS.PROXY_HOST_NOT_ALLOWED.message,
            ERRORS.PROXY_NAME_REFUSED.message,
          ]
            .map(quoted)
            .join(', ')}`,
        ),
      },
    },
    get: authenticated(
      {
        operationId: 'getSession',
        tags: ['Session'],
        summary: 'Read a session',
        description:
          "Poll every 2 to 3 s while pairing, or wait for each change: send the last answer's `ETag` as " +
          '`If-None-Match` with `?wait=<seconds>`, and the answer comes the moment the session changes (QR rotated, ' +
          'connected, disconnected, logged out; 404 once deleted), or 304 when the wait ends unchanged. Answered ' +
          "from a cache: never waits behind the session's work.",
        requestParams: { query: waitQuerySchema },
        responses: conditional(responses(ok(sessionSchema, 'The session'), 400, 404, 500, 503)),
      },
      ifNoneMatchHeader,
    ),
    delete: authenticated({
      operationId: 'deleteSession',
      tags: ['Session'],
      summary: 'Delete a session (not in the spec)',
      description: `Logs out if paired, deletes the session and all its data; 404 \`${ERRORS.SESSION_NOT_FOUND.message}\` from then on.`,
      responses: responses(ok(sessionIdOnlySchema, "The deleted session's id"), ...AUTHENTICATED),
    }),
  },
  '/session/reset': {
    post: authenticated({
      operationId: 'resetSession',
      tags: ['Session'],
      summary: 'Restart QR pairing (not in the spec)',
      description: 'Logs a connected device out and clears its credentials; a new QR and a new 3-minute window follow.',
      responses: responses(ok(createdSessionSchema, 'The same credentials'), ...AUTHENTICATED),
    }),
  },
}
