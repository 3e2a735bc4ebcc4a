/**
 * @module http/endpoints/session-proxy/route
 * The session's own proxy, an addition to the spec (docs/api.md: A proxy per session):
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
import { type Request, Router } from 'express'
import type { SessionProxy } from '../../../protocol/commands.js'
import type { AppDeps } from '../../deps.js'
import { parseProxyBody } from '../../schemas/proxy.js'
import { sessionRoute } from '../../session-route.js'

export const SESSION_PROXY_PATH = '/session/proxy'

/** What PUT and DELETE answer: the proxy now set, and when it applies. */
export interface ProxyChangeBody extends SessionProxy {
  takesEffect: 'next-connection'
}

export function sessionProxyRoutes(deps: AppDeps): Router {
  const { system, settings } = deps
  const router = Router()

  router.get(
    SESSION_PROXY_PATH,
    sessionRoute(
      deps,
      { rate: 'read' },
      ({ session }): Promise<SessionProxy> => system.run(session.id, { type: 'getSessionProxy' }),
    ),
  )

  const parse = async (req: Request) => (await parseProxyBody(req.body, settings, true))!
  router.put(
    SESSION_PROXY_PATH,
    sessionRoute(deps, { rate: 'read', body: true, parse }, async ({ session, input: proxy }) => {
      const set = await system.run(session.id, { type: 'setSessionProxy', proxy })
      return { ...set, takesEffect: 'next-connection' } satisfies ProxyChangeBody
    }),
  )

  router.delete(
    SESSION_PROXY_PATH,
    sessionRoute(deps, { rate: 'read' }, async ({ session }) => {
      const set = await system.run(session.id, { type: 'setSessionProxy', proxy: null })
      return { ...set, takesEffect: 'next-connection' } satisfies ProxyChangeBody
    }),
  )

  return router
}
