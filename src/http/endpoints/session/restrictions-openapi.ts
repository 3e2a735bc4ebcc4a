/**
 * @module http/endpoints/session/restrictions-openapi
 * The `restrictions` field of GET /session's Session object in the OpenAPI document (not in the spec; README:
 * Account health), tied to its TypeScript type.
 */
import { z } from 'zod'
import { CAP_STATUSES, type AccountRestrictions } from '../../../protocol/restrictions.js'
import { isoTime, shapeOf } from '../../openapi/response-schemas.js'

export const restrictionsSchema = shapeOf<AccountRestrictions>()(
  z
    .strictObject({
      reachoutTimelock: z
        .strictObject({
          active: z.boolean().describe('The account may not start new chats'),
          until: isoTime().nullable().describe('When the timelock ends; null when inactive or no end is known'),
          enforcementType: z
            .string()
            .nullable()
            .describe("The platform's reason (`BIZ_QUALITY`, `WEB_COMPANION_ONLY`, ...); null when inactive or none"),
        })
        .describe("The platform's reach-out timelock"),
      newChatCap: z
        .strictObject({
          status: z.enum(CAP_STATUSES).describe('`CAPPED`: no new chats until the cycle ends'),
          used: z.number().nullable().describe('New chats used in this cycle; null when unknown'),
          total: z.number().nullable().describe('New chats allowed per cycle; null when unknown'),
          cycleEndsAt: isoTime().nullable().describe('When the cycle ends; null when unknown'),
        })
        .describe("The platform's cap on new chats per cycle"),
    })
    .describe(
      "Not in the spec. The platform's restrictions on the account, once connected and read (at connect, on the " +
        "platform's notifications, after an error 463). While the timelock is active or the cap is `CAPPED`, a 1:1 " +
        'send or typing to a number the account has no conversation with is refused (429, or 403 when no end is known).',
    )
    .meta({ id: 'AccountRestrictions' }),
)
