/**
 * @module http/endpoints/view-link/openapi
 * POST /session/view-link and GET /session/qr in the OpenAPI document, with their header and response bodies.
 */
import { z } from 'zod'
import type { ZodOpenApiPathsObject } from 'zod-openapi'
import { RULE } from '../../schemas/validation-lines.js'
import { conditional, ifNoneMatchHeader, waitQuerySchema } from '../../openapi/conditional.js'
import { authenticated } from '../../openapi/operations.js'
import { isoTime, shapeOf } from '../../openapi/response-schemas.js'
import { errorWith, messageOf, ok, responses } from '../../openapi/responses.js'
import { pairingCodeSchema } from '../pairing-code/openapi.js'
import { LINKED_STATUS_QUERY, type QrLinkedBody, type QrViewBody, type ViewLinkBody } from './route.js'

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

const qrLinkedSchema = shapeOf<QrLinkedBody>()(
  z
    .strictObject({ linked: z.literal(true).describe('The phone paired the session: there is no QR to show any more') })
    .meta({ id: 'QrLinked' }),
)

const viewQrQuerySchema = waitQuerySchema.extend({
  [LINKED_STATUS_QUERY]: z
    .enum(['200', '410'])
    .optional()
    .describe(
      'How a paired session answers: 410 (the default), or 200 `{"linked": true}`, which the QR page asks for (a ' +
        'browser logs every 4xx answer as a console error)',
    ),
})

export const viewLinkPaths: ZodOpenApiPathsObject = {
  '/session/view-link': {
    post: authenticated({
      operationId: 'createViewLink',
      tags: ['Session'],
      summary: 'A view-only link to the QR page (not in the spec)',
      description:
        "A link to the QR page that shows this session's QR and nothing else, for whoever holds the phone: " +
        'its token is not the `session-id`, works on no other endpoint, and stops at the end of the QR window, once ' +
        'the session is paired, or when it is reset or deleted.',
      responses: {
        ...responses(ok(viewLinkSchema, 'The link and when it expires at the latest'), 400, 404, 500, 503),
        409: errorWith(messageOf('SESSION_ALREADY_PAIRED')),
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
        '(or 410 once the phone paired the session; 200 `{"linked": true}` with `?linkedStatus=200`), or 304 when ' +
        'the wait ends unchanged.',
      requestParams: { header: viewTokenHeaderSchema.extend(ifNoneMatchHeader), query: viewQrQuerySchema },
      responses: conditional({
        200: ok(
          z.union([qrViewSchema, qrLinkedSchema]),
          `The session's current QR; with \`?${LINKED_STATUS_QUERY}=200\`, \`{"linked": true}\` once the phone paired it`,
        ),
        400: errorWith(`${messageOf('INVALID_HEADER')}: header \`view-token\` missing or empty; \`wait ${RULE.WAIT}\``),
        404: errorWith(
          `${messageOf('VIEW_LINK_NOT_FOUND')}: unknown, expired or revoked token, or its session is gone`,
        ),
        410: errorWith(`${messageOf('VIEW_LINK_USED')}: the phone paired the session`),
        500: errorWith(messageOf('INTERNAL')),
      }),
    },
  },
}
