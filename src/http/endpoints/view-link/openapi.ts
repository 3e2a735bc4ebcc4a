/**
 * @module http/endpoints/view-link/openapi
 * POST /session/view-link and GET /session/qr in the OpenAPI document, with their header and response bodies.
 */
import { z } from 'zod'
import type { ZodOpenApiPathsObject } from 'zod-openapi'
import { ERROR_MESSAGE, RULE } from '../../../protocol/messages.js'
import { conditional, ifNoneMatchHeader, waitQuerySchema } from '../../openapi/conditional.js'
import { guarded } from '../../openapi/operations.js'
import { isoTime, shapeOf } from '../../openapi/response-schemas.js'
import { errorWith, ok, quoted, responses } from '../../openapi/responses.js'
import { pairingCodeSchema } from '../pairing-code/openapi.js'
import type { QrViewBody, ViewLinkBody } from './route.js'

const viewTokenHeaderSchema = z.object({
  'view-token': z.string().min(1).describe('The token in the `#view=` fragment of a link from POST /session/view-link'),
})

const viewLinkSchema = shapeOf<ViewLinkBody>()(
  z
    .strictObject({
      url: z
        .string()
        .describe(
          'The QR page with a view-only token in its fragment (`/#view=<token>`); give this, never the ' +
            '`session-id`, to whoever holds the phone. PUBLIC_URL sets its origin',
        ),
      expiresAt: isoTime().describe(
        'When the link stops working, at the latest (the end of the QR window); it stops ' +
          'earlier once the session is paired, reset or deleted',
      ),
    })
    .meta({ id: 'ViewLink' }),
)

const qrViewSchema = shapeOf<QrViewBody>()(
  z
    .strictObject({
      qrcode: z.string().describe('QR image as base64 PNG without a `data:` prefix; empty before the first QR'),
      expiresAt: isoTime().describe('When the view link stops working, at the latest'),
      pairingCode: pairingCodeSchema
        .nullable()
        .describe(
          'A pairing code pending for the session (POST /session/pairing-code), to type on the phone instead of ' +
            'scanning; null when there is none or it expired',
        ),
    })
    .meta({ id: 'QrView' }),
)

export const viewLinkPaths: ZodOpenApiPathsObject = {
  '/session/view-link': {
    post: guarded({
      operationId: 'createViewLink',
      tags: ['Session'],
      summary: 'A view-only link to the QR page (not in the spec)',
      description:
        "A link to the QR page that shows this session's QR and nothing else, for whoever holds the phone: " +
        'its token is not the `session-id`, works on no other endpoint, and stops at the end of the QR window, once ' +
        'the session is paired, or when it is reset or deleted.',
      responses: {
        ...responses(ok(viewLinkSchema, 'The link and when it expires at the latest'), 400, 404, 500, 503),
        409: errorWith(quoted(ERROR_MESSAGE.SESSION_ALREADY_PAIRED)),
      },
    }),
  },
  '/session/qr': {
    get: {
      operationId: 'viewQr',
      tags: ['Session'],
      summary: 'The QR a view-only link shows (not in the spec)',
      description:
        "What the QR page asks with a view link's token. Takes no `id` or `session-id`. Waits for a change like " +
        'GET /session: `If-None-Match` with the last `ETag` and `?wait=<seconds>` answer the moment the QR rotates ' +
        '(or 410 once the phone paired the session), or 304 when the wait ends unchanged.',
      requestParams: { header: viewTokenHeaderSchema.extend(ifNoneMatchHeader), query: waitQuerySchema },
      responses: conditional({
        200: ok(qrViewSchema, "The session's current QR"),
        400: errorWith(
          `${quoted(ERROR_MESSAGE.INVALID_HEADER)}: header \`view-token\` missing or empty; \`wait ${RULE.WAIT}\``,
        ),
        404: errorWith(
          `${quoted(ERROR_MESSAGE.VIEW_LINK_NOT_FOUND)}: unknown, expired or revoked token, or its session is gone`,
        ),
        410: errorWith(`${quoted(ERROR_MESSAGE.VIEW_LINK_USED)}: the phone paired the session`),
        500: errorWith(quoted(ERROR_MESSAGE.INTERNAL)),
      }),
    },
  },
}
