/**
 * @module http/cluster-routing
 * Cluster mode's first middleware: any node answers any request. A request for a session another node runs is
 * forwarded to that node (cluster/forward.ts) and its answer streamed back, never redirected; a session between
 * two nodes answers 503 `session is moving to another node, retry in 1 s` with Retry-After; POST /session goes to
 * the least loaded node (cluster/routing.ts). The owner does everything else itself: authentication, limits,
 * validation, so a forwarded request is answered exactly as if it had come straight to the owner.
 *
 * A request a peer node forwarded (its `x-gateway-peer` token checked) is handled here or refused with 503, never
 * forwarded again (no loops while two nodes disagree about an owner), and its `x-gateway-client` is believed as the
 * client for the per-client limits. From anyone else those two headers are ignored.
 */
import type { Request, RequestHandler } from 'express'
import { forwardRequest, PEER_CLIENT_HEADER, PEER_TOKEN_HEADER } from '../cluster/forward.js'
import type { ClusterRoutes, Route } from '../cluster/routing.js'
import { GatewayError } from '../protocol/errors.js'
import { requestClientKey, setForwardedClient } from './client-key.js'

/** The API's paths (the ops endpoints, docs and QR page are every node's own). */
const SESSION_PATHS = /^\/(session|message|status|typing|group|channel)(\/|$)/

const header = (req: Request, name: string): string | undefined => {
  const value = req.headers[name]
  return typeof value === 'string' && value !== '' ? value : undefined
}

export function clusterRouting(routes: ClusterRoutes): RequestHandler {
  return (req, res, next) => {
    if (!SESSION_PATHS.test(req.path)) return next()
    const fromPeer = routes.isPeer(header(req, PEER_TOKEN_HEADER))
    if (fromPeer) setForwardedClient(req, header(req, PEER_CLIENT_HEADER) ?? 'unknown')
    const go = (route: Route) => {
      if (route.to === 'here') return next()
      if (route.to === 'moving' || fromPeer) return next(new GatewayError('SESSION_MOVING', undefined, 1))
      forwardRequest(req, res, {
        target: route.url,
        peerToken: routes.peerToken,
        clientKey: requestClientKey(req),
        onError: next,
      })
    }
    if (req.method === 'POST' && req.path === '/session') return go(fromPeer ? { to: 'here' } : routes.placeNew())
    // GET /session/qr is authorised by its view token, which only the issuing node knows
    const id = header(req, 'id')
    if (id === undefined || routes.hosts(id)) return next()
    // Redis unreachable: the session's node cannot be known; the client retries (503 with Retry-After)
    routes.locate(id).then(go, () => next(new GatewayError('OVERLOADED')))
  }
}
