/**
 * @module cluster/front
 * Cluster mode's first middleware on every node: any node answers any request, and nothing crosses to another node
 * before this node has checked it.
 *   1. A request another node forwarded (its `x-gateway-peer` signature checked: cluster/peer-auth.ts) is handled
 *      here or answered 503 "moving" (marked for the forwarding node, which then asks again), never forwarded
 *      again; its `x-gateway-client` is believed as the client. From anyone else those headers are ignored.
 *   2. A client's request for a session is authenticated here (`id` + `session-id` against the registry:
 *      cluster/session-auth.ts): a wrong secret gets the same 404, in the same time, on every node, whether the id
 *      runs here, elsewhere or nowhere.
 *   3. Then it goes where the session runs: here, or to the node holding its lease, with its body read whole
 *      first and at most MAX_PENDING_PER_SESSION of one session's requests crossing at once (cluster/forward.ts).
 *      A session on its way between nodes is waited for (CLUSTER_MOVE_WAIT_MS), not failed: the request goes on
 *      once the session is up on its next node, and 503 "moving" with Retry-After only past that wait.
 *      A waiting GET /session (`If-None-Match` and `?wait=`) crosses on the wait lane (cluster/forward.ts) and is
 *      counted apart: at most SESSION_WAITS_PER_SESSION of a session's waits cross at once (the owner's own bound),
 *      and they take nothing of MAX_PENDING_PER_SESSION, which stays for the session's sends and reads.
 *      A session's requests take at most its share of the pool to a peer (CLUSTER_FORWARD_SESSION_PERCENT of
 *      CLUSTER_FORWARD_SOCKETS), so one tenant cannot fill it for the others.
 *   4. A view link's GET /session/qr is its holder's, not the tenant's: it is counted apart from the session's own
 *      requests and waits (as many again), here and on the owner, so a view link can never use up the tenant's
 *      budgets; the owner takes its session from the token alone (never from an `id` the client added), so a
 *      token is answered by the node running its session once, with no ask-again loop.
 * Paths are matched as the router matches them (./front-paths.ts): `/Session` and `/session/` take `/session`'s lane.
 * POST /session is every node's own (actors/main: the node creates the session for the least loaded node and hands
 * it over); the ops endpoints, docs and the QR page are every node's own too.
 */
import type { Request, RequestHandler, Response } from 'express'
import { GatewayError } from '../protocol/errors.js'
import {
  requestClientKey,
  setForwardedClient,
  setForwardedOrigin,
  setPreloadedBody,
  tooManyWaitsForSession,
} from '../http/front-seam.js'
import { PEER_CLIENT_HEADER, PEER_HEADER, PEER_ORIGIN_HEADER, peerRequestOf, type PeerAuth } from './peer-auth.js'
import type { Forwarder, Lane, PeerNode } from './forward.js'
import { BodyAborted, readBody } from './request-body.js'
import type { ClusterRoutes, Route } from './routing.js'
import type { ClusterSessionAuth } from './session-auth.js'
import type { ViewTokenRoutes } from './view-token-routes.js'
import { ADOPT_PATH, header, mayWait, routePath, sessionPath, viewTokenOf } from './front-paths.js'
/** Enough for a node's hand-over of thousands of session ids in one request. */
const MAX_ADOPT_BODY = 1 << 20
/** How often a request waiting for a moving session asks again where it is. */
const MOVE_POLL_MS = 100
/**
 * How long where a session runs is taken as known without asking Redis again. A session moves rarely, and a stale
 * answer costs nothing but a retry: the node it names runs nothing of a request for a session it no longer runs
 * (it answers "moving", and the route is asked again).
 */
const ROUTE_CACHE_MS = 1_000
const ROUTE_CACHE_MAX = 100_000

export interface FrontParts {
  auth: PeerAuth
  sessions: ClusterSessionAuth
  routes: ClusterRoutes
  forwarder: Forwarder
  /** Whether this node runs `id` and is not handing it over. */
  runsHere(id: string): boolean
  /** Whether this node is handing `id` over (its requests wait for the next node). */
  leaving(id: string): boolean
  /** A peer's request to start these sessions here at once (those that belong here and nobody holds). */
  adoptNow(ids: string[]): Promise<void>
  /** Tells the session of a view link's token a node made (GET /session/qr goes to that session's node). */
  viewTokens: Pick<ViewTokenRoutes, 'sessionOf'>
  bodyLimitBytes: number
  /** One session's requests crossing at once: MAX_PENDING_PER_SESSION, at most its share of a peer's pool. */
  perSessionInFlight: number
  /** Waiting GET /session requests of one session crossing at once (SESSION_WAITS_PER_SESSION). */
  waitsPerSession: number
  moveWaitMs: number
}

/** Whose budgets a request takes: the session's own client's, or a view link holder's (counted apart). */
type Budget = 'api' | 'view'

const sleep = (ms: number) => new Promise(resolve => setTimeout(resolve, ms))

export function clusterFront(parts: FrontParts): RequestHandler {
  /** Per lane, how many of each session's requests are crossing now, by budget (`<budget> <id>`). */
  const crossing: Record<Lane, Map<string, number>> = { request: new Map(), wait: new Map() }
  /** session id → the node it ran on when last asked, and when. */
  const routes = new Map<string, { peer: PeerNode; at: number }>()

  /** Where session `id` runs: this node, another, or on its way (from the cache when fresh). */
  async function locate(id: string): Promise<Route> {
    if (parts.runsHere(id)) return { to: 'here' }
    const known = routes.get(id)
    if (known && performance.now() - known.at < ROUTE_CACHE_MS) return { to: 'node', peer: known.peer }
    const where = await parts.routes.locate(id)
    if (where.to === 'node') {
      if (routes.size >= ROUTE_CACHE_MAX) routes.delete(routes.keys().next().value!)
      routes.set(id, { peer: where.peer, at: performance.now() })
    } else routes.delete(id)
    return where
  }

  /** What a peer request's signature covers. */
  const claimedOf = (req: Request) =>
    peerRequestOf(req.method, req.originalUrl, req.headers, header(req, PEER_CLIENT_HEADER) ?? '')

  /** The signing node of a peer request, or undefined for a client's. */
  const peerOf = (req: Request): string | undefined => {
    const signature = header(req, PEER_HEADER)
    if (signature === undefined) return undefined
    return parts.auth.verify(signature, claimedOf(req))
  }

  /** POST /_cluster/adopt `{"ids": [...]}` from a peer: 204 once each session is started or found elsewhere. */
  async function adopt(req: Request, res: Response): Promise<void> {
    // anyone else gets the 404 of any unknown path, before a byte of the body is read
    if (peerOf(req) === undefined) throw new GatewayError('NOT_FOUND')
    const body = await readBody(req, MAX_ADOPT_BODY)
    let ids: unknown
    try {
      ids = (JSON.parse(body.toString('utf8')) as { ids?: unknown }).ids
    } catch {
      throw new GatewayError('INVALID_JSON')
    }
    if (!Array.isArray(ids) || !ids.every(id => typeof id === 'string')) throw new GatewayError('INVALID_JSON')
    await parts.adoptNow(ids as string[])
    res.status(204).end()
  }

  /** Routes an authenticated client request for session `id`; `next` when it is to be answered here. */
  async function route(req: Request, res: Response, id: string, lane: Lane, next: () => void): Promise<void> {
    let body: Buffer | undefined
    const until = Date.now() + parts.moveWaitMs
    for (;;) {
      if (res.closed) return
      if (!parts.leaving(id)) {
        const where = await locate(id)
        if (where.to === 'here') {
          if (body !== undefined) setPreloadedBody(req, body)
          return next()
        }
        if (where.to === 'node') {
          body ??= await readBody(req, parts.bodyLimitBytes)
          let outcome: Awaited<ReturnType<Forwarder['forward']>>
          try {
            outcome = await parts.forwarder.forward(req, res, where.peer, body, requestClientKey(req), lane)
          } catch (err) {
            routes.delete(id) // it did not answer: ask Redis next time
            throw err
          }
          if (outcome === 'answered') return
          routes.delete(id)
          // 'moving' or 'not-sent': the peer ran nothing (it is handing the session over, or stopping)
        }
      }
      // between two nodes: wait for it to be up on the next one (the body, once read, is kept for it)
      if (Date.now() + MOVE_POLL_MS > until) throw new GatewayError('SESSION_MOVING')
      await sleep(MOVE_POLL_MS)
    }
  }

  async function client(req: Request, res: Response, path: string, next: (err?: unknown) => void): Promise<void> {
    const viewToken = viewTokenOf(req, path)
    // GET /session/qr: a token a node made names its session; any other token is this node's to answer (404)
    const id = viewToken === undefined ? header(req, 'id') : parts.viewTokens.sessionOf(viewToken)
    const secret = viewToken === undefined ? header(req, 'session-id') : viewToken
    // no credentials: the route answers 400
    if (id === undefined || secret === undefined) return next()
    const here = parts.runsHere(id)
    // a view token is checked by the node holding it (its hash, expiry, revocation); its MAC is the check here
    if (viewToken === undefined && !(await parts.sessions.authenticate(id, secret, here)))
      throw new GatewayError('SESSION_NOT_FOUND')
    if (here) return next()
    const lane: Lane = mayWait(req, path) ? 'wait' : 'request'
    const budget: Budget = viewToken === undefined ? 'api' : 'view'
    const key = `${budget} ${id}`
    const inFlight = crossing[lane] as Map<string, number>
    const count = inFlight.get(key) ?? 0
    if (lane === 'wait' && count >= parts.waitsPerSession) throw tooManyWaitsForSession(parts.waitsPerSession)
    if (lane === 'request' && count >= parts.perSessionInFlight) throw new GatewayError('SESSION_BUSY')
    inFlight.set(key, count + 1)
    try {
      await route(req, res, id, lane, next)
    } finally {
      const left = (inFlight.get(key) ?? 1) - 1
      if (left > 0) inFlight.set(key, left)
      else inFlight.delete(key)
    }
  }

  return (req, res, next) => {
    const path = routePath(req)
    if (path === ADOPT_PATH && req.method === 'POST') {
      adopt(req, res).catch(err => {
        if (!(err instanceof BodyAborted)) next(err)
      })
      return
    }
    if (!sessionPath(req, path)) return next()
    const from = peerOf(req)
    if (from !== undefined) {
      setForwardedClient(req, header(req, PEER_CLIENT_HEADER) ?? 'unknown')
      setForwardedOrigin(req, header(req, PEER_ORIGIN_HEADER) ?? '')
      // a view token's session is the one it names: an `id` its holder added is nobody's business here
      const viewToken = viewTokenOf(req, path)
      const id = viewToken === undefined ? header(req, 'id') : parts.viewTokens.sessionOf(viewToken)
      // handled here or not at all: two nodes that briefly disagree about an owner never bounce a request
      if (id === undefined || parts.runsHere(id)) return next()
      return next(new GatewayError('SESSION_MOVING'))
    }
    // a node's forwarded request that arrives late or again: its node answered its client already; run nothing
    const signature = header(req, PEER_HEADER)
    if (signature !== undefined && parts.auth.spent(signature, claimedOf(req)))
      return next(new GatewayError('SESSION_MOVING'))
    // the common case first, with no promise: a session this node runs, with its right secret
    const id = header(req, 'id')
    const secret = header(req, 'session-id')
    if (id !== undefined && secret !== undefined && parts.runsHere(id) && parts.sessions.authenticLocally(id, secret))
      return next()
    client(req, res, path, next).catch(err => {
      if (err instanceof BodyAborted) return // the client left; nobody to answer
      next(err)
    })
  }
}
