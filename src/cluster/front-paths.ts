/**
 * @module cluster/front-paths
 * Which lane of cluster/front.ts a request takes, decided by its path the way the router matches it (express:
 * letters in any case, one trailing slash or none), so that `/Session` or `/session/` reach the route `/session`
 * reaches, through the same checks and counts: a path the front read differently from the router would be answered
 * by a route on a node that does not run the session, or outside the bounds its lane keeps.
 */
import type { Request } from 'express'
import { SESSION_PATH, SESSION_API_ROOTS, VIEW_QR_PATH, VIEW_TOKEN_HEADER } from '../http/api-paths.js'

/** The API's paths for one session, as the app's routes name them (the ops endpoints, docs and QR page are every
 * node's own). */
const SESSION_PATHS = new RegExp(`^/(${SESSION_API_ROOTS.join('|')})(/|$)`)
/** A peer asks this node to take a session now (a new one placed here, or one handed over): cluster/cluster-node.ts. */
export const ADOPT_PATH = '/_cluster/adopt'

/** `req.path` as the router matches it: lower case, without the one trailing slash it tolerates. */
export function routePath(req: Pick<Request, 'path'>): string {
  const path = req.path.toLowerCase()
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path
}

/** A string header, or undefined when it is missing or empty. */
export const header = (req: Request, name: string): string | undefined => {
  const value = req.headers[name]
  return typeof value === 'string' && value !== '' ? value : undefined
}

/** A path of the API for one session (POST /session is every node's own: it creates one). */
export const sessionPath = (req: Request, path: string): boolean =>
  SESSION_PATHS.test(path) && !(req.method === 'POST' && path === SESSION_PATH)

/** GET /session/qr's view token: the request is a view link holder's, never the session's own client's. */
export const viewTokenOf = (req: Request, path: string): string | undefined =>
  path === VIEW_QR_PATH ? header(req, VIEW_TOKEN_HEADER) : undefined

/**
 * A GET /session that may wait on its node for a change (http/session-wait/long-poll.ts): it holds its connection
 * for up to SESSION_WAIT_MAX_SECONDS. One that does not wait after all (an ETag no longer current) just answers.
 */
export const mayWait = (req: Request, path: string): boolean =>
  req.method === 'GET' &&
  (path === SESSION_PATH || path === VIEW_QR_PATH) &&
  req.headers['if-none-match'] !== undefined &&
  'wait' in req.query
