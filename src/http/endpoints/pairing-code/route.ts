/**
 * @module http/endpoints/pairing-code/route
 * POST /session/pairing-code, an addition to the spec (README: "Pairing by code"): headers `id` + `session-id`, body
 * `{ phone }` → `{ code, expiresAt }`, answered only once the platform registered the code (never a code it refused
 * or never got). Each request is a platform round trip and a notification on that phone: one per
 * PAIRING_CODE_INTERVAL_MS per session (limits/session-rate.ts), counted after validation, so that a mistyped number
 * (400, no platform round trip) does not make the client wait for the corrected one.
 *
 * @example
 * POST /session/pairing-code  (id, session-id) {"phone": "15550000001"} → { code: 'ABCD-EFGH', expiresAt }
 */
import { Router } from 'express'
import type { AppDeps } from '../../deps.js'
import { authOf, sessionAuth } from '../../session-auth.js'
import { jsonBody } from '../../json-body.js'
import { sessionRateOf } from '../../limits/session-rate.js'
import { requestSignal } from '../../request-signal.js'
import { parsePairingCodeRequest } from './schema.js'

export const PAIRING_CODE_PATH = '/session/pairing-code'

export interface PairingCodeBody {
  code: string
  expiresAt: string
}

export function pairingCodeRoutes(deps: AppDeps): Router {
  const { system, settings } = deps
  const router = Router()
  router.post(
    PAIRING_CODE_PATH,
    sessionAuth(system),
    jsonBody(settings.BODY_LIMIT_BYTES),
    (req, res, next) => {
      res.locals.pairingCodeRequest = parsePairingCodeRequest(req.body)
      next()
    },
    sessionRateOf(deps, 'pairingCode'),
    async (_req, res) => {
      const { id } = authOf(res)
      const { phone } = res.locals.pairingCodeRequest as ReturnType<typeof parsePairingCodeRequest>
      const { code, expiresAt } = await system.run(id, { type: 'requestPairingCode', phone }, requestSignal(res))
      const body: PairingCodeBody = { code, expiresAt: new Date(expiresAt).toISOString() }
      res.setHeader('Cache-Control', 'no-store')
      res.json(body)
    },
  )
  return router
}
