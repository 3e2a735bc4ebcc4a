/**
 * @module http/endpoints/session-proxy/route
 * The session's own proxy, an addition to the spec (README: A proxy per session):
 *
 * - GET /session/proxy: the proxy the session's next connection goes through, without its password;
 * - PUT /session/proxy `{"proxy": "socks5://user:pass@host:port"}`: sets the session's own (checked like the one
 *   POST /session takes), replacing any earlier one and the operator's default;
 * - DELETE /session/proxy: removes it (the operator's default applies again, if there is one).
 *
 * A change applies to the session's next connection to the platform (the next reconnect, reset or restart): the
 * connection open now is kept, so a typo cannot cut a working session. The answer says so (`takesEffect`). The
 * actor stores it with the session's record (sealed with DATA_KEY), so the commands run on the session's worker.
 */
import { Router } from 'express'
import type { SessionProxy } from '../../../protocol/commands.js'
import { authOf, sessionAuth } from '../../session-auth.js'
import { jsonBody } from '../../json-body.js'
import type { AppDeps } from '../../deps.js'
import { sessionRateOf } from '../../limits/session-rate.js'
import { parseProxyBody } from '../../schemas/proxy.js'

export const SESSION_PROXY_PATH = '/session/proxy'

/** What PUT and DELETE answer: the proxy now set, and when it applies. */
export interface ProxyChangeBody extends SessionProxy {
  takesEffect: 'next-connection'
}

export function sessionProxyRoutes(deps: AppDeps): Router {
  const { system, settings } = deps
  const router = Router()
  const guard = [sessionAuth(system), sessionRateOf(deps, 'read')]

  router.get(SESSION_PROXY_PATH, ...guard, async (_req, res) => {
    const view: SessionProxy = await system.run(authOf(res).id, { type: 'getSessionProxy' })
    res.json(view)
  })

  router.put(SESSION_PROXY_PATH, ...guard, jsonBody(settings.BODY_LIMIT_BYTES), async (req, res) => {
    const proxy = (await parseProxyBody(req.body, settings, true))!
    const view = await system.run(authOf(res).id, { type: 'setSessionProxy', proxy })
    const body: ProxyChangeBody = { ...view, takesEffect: 'next-connection' }
    res.json(body)
  })

  router.delete(SESSION_PROXY_PATH, ...guard, async (_req, res) => {
    const view = await system.run(authOf(res).id, { type: 'setSessionProxy', proxy: null })
    const body: ProxyChangeBody = { ...view, takesEffect: 'next-connection' }
    res.json(body)
  })

  return router
}
