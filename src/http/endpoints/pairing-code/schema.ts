/**
 * @module http/endpoints/pairing-code/schema
 * POST /session/pairing-code: `{ "phone": "<the account's number>" }`, read like every phone number of the API (a
 * leading `+`, spaces, dashes, dots and parentheses stripped, 6 to 15 digits left): the number of the phone that
 * will type the code, which the platform sends a notification to.
 */
import { z } from 'zod'
import { validationFailed } from '../../../protocol/errors.js'
import { bodyObject } from '../../schemas/body.js'
import { phoneNumber } from '../../schemas/fields.js'
import { check } from '../../schemas/format.js'

export const pairingCodeRequestSchema = z.object({ phone: phoneNumber() })

/** Validates a POST /session/pairing-code body; throws the 400 `GatewayError` with every failing line. */
export function parsePairingCodeRequest(rawBody: unknown): { phone: string } {
  const body = bodyObject(rawBody)
  if (!body.ok) throw validationFailed(body.messages)
  const request = check(pairingCodeRequestSchema, body.value)
  if (!request.ok) throw validationFailed(request.messages)
  return request.value
}
