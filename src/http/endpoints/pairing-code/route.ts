/**
 * @module http/endpoints/pairing-code/route
 * POST /session/pairing-code, an addition to the spec (docs/api.md): headers `id` + `session-id`, body
 * `{ phone }` → `{ code, expiresAt }`, answered only once the platform registered the code (never a code it refused
 * or never got). Each request is a platform round trip and a notification on that phone: one per
 * PAIRING_CODE_INTERVAL_MS per session (limits/session-rate.ts), and a few per number and per client each hour
 * (limits/pairing-code-budget.ts), all counted after validation, so that a mistyped number (400, no platform round
 * trip) does not make the client wait for the corrected one.
 *
 * @example
 * POST /session/pairing-code  (id, session-id) {"phone": "15550000001"} → { code: 'ABCD-EFGH', expiresAt }
 */
import { type Request, Router } from 'express'
import type { AppDeps } from '../../deps.js'
import { requestClientKey } from '../../client-key.js'
import { localPairingCodeBudget, pairingCodeGate } from '../../limits/pairing-code-budget.js'
import { sessionRoute } from '../../session-route.js'
import { parsePairingCodeRequest } from './schema.js'

export const PAIRING_CODE_PATH = '/session/pairing-code'

export interface PairingCodeBody {
  code: string
  expiresAt: string
}

export function pairingCodeRoutes(deps: AppDeps): Router {
  const { system, settings } = deps
  const router = Router()
  const spend = pairingCodeGate(deps.cluster?.pairingCodeBudget ?? localPairingCodeBudget(settings))
  const options = {
    rate: 'pairingCode',
    rateAfterValidation: true,
    body: true,
    parse: (req: Request) => parsePairingCodeRequest(req.body),
  } as const
  router.post(
    PAIRING_CODE_PATH,
    sessionRoute(deps, options, async ({ session, input, signal, req, res }) => {
      // a paired session's actor answers 409 and asks the platform nothing: that costs no one's budget
      if (session.snapshot.qrDeadline !== null) await spend(requestClientKey(req), input.phone)
      const { code, expiresAt } = await system.run(
        session.id,
        { type: 'requestPairingCode', phone: input.phone },
        signal,
      )
      res.setHeader('Cache-Control', 'no-store')
      return { code, expiresAt: new Date(expiresAt).toISOString() } satisfies PairingCodeBody
    }),
  )
  return router
}
