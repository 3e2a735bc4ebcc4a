/**
 * @module http/endpoints/pairing-code/openapi
 * POST /session/pairing-code in the OpenAPI document, and the PairingCode body the QR view (GET /session/qr) shares.
 */
import { z } from 'zod'
import type { ZodOpenApiPathsObject } from 'zod-openapi'
import { authenticated, jsonRequestBody } from '../../openapi/operations.js'
import { phoneField } from '../../openapi/request-bodies.js'
import { isoTime, shapeOf } from '../../openapi/response-schemas.js'
import {
  errorWith,
  AUTHENTICATED_WITH_BODY,
  messageOf,
  ok,
  responses,
  RETRY_AFTER_HEADER,
} from '../../openapi/responses.js'
import type { PairingCodeBody } from './route.js'

export const pairingCodeSchema = shapeOf<PairingCodeBody>()(
  z
    .strictObject({
      code: z
        .string()
        .describe('What the phone\'s user types under "Link with phone number", as `ABCD-EFGH` (8 characters)'),
      expiresAt: isoTime().describe(
        "When the code stops working, at the latest: the end of the platform's registration of the session's " +
          "current connection, the code's own 3 minutes, or the QR window, whichever comes first",
      ),
    })
    .meta({ id: 'PairingCode' }),
)

const requestSchema = z
  .object({ phone: phoneField().unwrap() })
  .meta({ id: 'PairingCodeRequest', description: 'The number of the phone that will type the code' })

export const pairingCodePaths: ZodOpenApiPathsObject = {
  '/session/pairing-code': {
    post: authenticated({
      operationId: 'requestPairingCode',
      tags: ['Session'],
      summary: 'Link the phone with a code instead of the QR (not in the spec)',
      description:
        'While the session awaits pairing: a code the phone\'s user types under "Link with phone number"; the ' +
        'session then turns connected as after a scan. Answered only once the platform registered the code. The ' +
        'QR keeps rotating meanwhile and still links: the first to finish wins. A new code replaces the last one. ' +
        'At most one request per `PAIRING_CODE_INTERVAL_MS` per session, `PAIRING_CODES_PER_PHONE_PER_HOUR` codes ' +
        'per phone number and `PAIRING_CODES_PER_CLIENT_PER_HOUR` per client (429 with `Retry-After` past them).',
      requestBody: jsonRequestBody(requestSchema),
      responses: {
        ...responses(ok(pairingCodeSchema, 'The code the platform registered'), ...AUTHENTICATED_WITH_BODY),
        409: errorWith(`${messageOf('PAIRING_CODE_NOT_NEEDED')}: the session is paired (or pairing right now)`),
        500: errorWith(
          `${messageOf('PAIRING_CODE_REFUSED')} (the platform refused it), ` +
            `${messageOf('PLATFORM_TIMEOUT')}, ${messageOf('PAIRING_CODE_CONNECTION_LOST')}, ` +
            `or ${messageOf('INTERNAL')}`,
        ),
        503: {
          ...errorWith(
            `${messageOf('SESSION_CONNECTING')}: the session has no registration with the platform yet ` +
              `(connecting or reconnecting); or ${messageOf('OVERLOADED')}, ` +
              `${messageOf('SESSION_MOVING')}, ${messageOf('NODE_UNREACHABLE')}`,
          ),
          headers: RETRY_AFTER_HEADER,
        },
      },
    }),
  },
}
