/**
 * @module http/request-origin
 * The origin a client reached the gateway at, for the links the gateway hands out (the QR page's view link) when
 * PUBLIC_URL is unset: the request's scheme and Host (X-Forwarded-Proto and -Host when TRUST_PROXY believes the
 * proxy), and only a Host that is a host name or an address with an optional port; anything else in it names no
 * origin. In cluster mode a request forwarded by another node was reached at the owner's internal address, which a
 * link must never name: it carries the origin the client reached the first node at instead, signed by that node
 * (cluster/front.ts), and that is the request's origin.
 */
import type { Request } from 'express'

/** A DNS name (labels of letters, digits and inner dashes), an IPv4 address or a bracketed IPv6 one; a port. */
const HOST =
  /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i

/** The origin `req` reached this node at, or undefined when its Host is not a host. */
export function requestOrigin(req: Pick<Request, 'host' | 'protocol'>): string | undefined {
  let host: string | undefined
  try {
    host = req.host
  } catch {
    return undefined
  }
  if (typeof host !== 'string' || host.length > 260 || !HOST.test(host)) return undefined
  return `${req.protocol === 'https' ? 'https' : 'http'}://${host.toLowerCase()}`
}

/** Requests another node forwarded, with the origin their client reached that node at ('' for none). */
const forwardedOrigins = new WeakMap<object, string>()

/** Cluster mode: `req` came from a peer node (its signature checked), whose client reached it at `origin`. */
export function setForwardedOrigin(req: object, origin: string): void {
  forwardedOrigins.set(req, origin)
}

/** The origin the client of `req` reached the gateway at: through the node that forwarded it, or here. */
export function clientOrigin(req: Request): string | undefined {
  const forwarded = forwardedOrigins.get(req)
  if (forwarded !== undefined) return forwarded === '' ? undefined : forwarded
  return requestOrigin(req)
}
