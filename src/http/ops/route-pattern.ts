/**
 * @module http/ops/route-pattern
 * The route a request matched, as its pattern (`/group/:groupId`), never the raw path: metrics labels and log
 * fields must not grow with group ids or typos. Requests no route matched share one label.
 */
import type { Request } from 'express'

const UNMATCHED_ROUTE = '(unmatched)'

export function routePattern(req: Request): string {
  const path: unknown = (req.route as { path?: unknown } | undefined)?.path
  return typeof path === 'string' ? `${req.baseUrl}${path}` : UNMATCHED_ROUTE
}
