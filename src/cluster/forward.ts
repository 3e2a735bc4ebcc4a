/**
 * @module cluster/forward
 * Forwards one HTTP request to another node of the cluster and streams its answer back: the body is piped as it
 * arrives (never buffered here), the answer's status, headers and body pass through unchanged, and a client that
 * goes away aborts the forwarded request (the owner then sees its own client abort). One keep-alive agent per
 * node, so a forwarded request costs no new connection. The request carries the nodes' peer token and the client
 * key this node saw, so the owner rate-limits the real client, not the forwarding node (http/cluster-routing.ts).
 *
 * Nothing is retried here: a request may have reached the owner before the connection failed, and a send must not
 * go out twice. A node that does not answer gets the client a 503 `NODE_UNREACHABLE` (Retry-After 1), unless the
 * answer had begun, in which case the client's connection is cut.
 */
import http from 'node:http'
import type { IncomingHttpHeaders } from 'node:http'
import type { Request, Response } from 'express'
import { GatewayError } from '../protocol/errors.js'
import { countInThread } from '../metrics/thread-counters.js'

export const PEER_TOKEN_HEADER = 'x-gateway-peer'
export const PEER_CLIENT_HEADER = 'x-gateway-client'

/** Headers of one hop only (RFC 9110 §7.6.1), never passed on. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
])

/** How long a forwarded request may wait for its answer to begin: past the longest a send waits for its ack. */
const ANSWER_TIMEOUT_MS = 120_000

const agents = new Map<string, http.Agent>()

function agentFor(origin: string): http.Agent {
  let agent = agents.get(origin)
  if (!agent) {
    agent = new http.Agent({ keepAlive: true, maxSockets: 256, scheduling: 'lifo' })
    agents.set(origin, agent)
  }
  return agent
}

function passable(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name)) continue
    out[name] = value
  }
  return out
}

export interface ForwardOptions {
  /** The owner's origin (its ADVERTISE_URL). */
  target: string
  peerToken: string
  clientKey: string
  /** Where an error before the answer began goes (express's `next`). */
  onError: (err: GatewayError) => void
}

export function forwardRequest(req: Request, res: Response, options: ForwardOptions): void {
  const url = new URL(req.originalUrl, options.target)
  const headers = passable(req.headers)
  delete headers[PEER_TOKEN_HEADER]
  delete headers[PEER_CLIENT_HEADER]
  headers.host = url.host
  headers[PEER_TOKEN_HEADER] = options.peerToken
  headers[PEER_CLIENT_HEADER] = options.clientKey
  const out = http.request(url, { method: req.method, headers, agent: agentFor(url.origin) })
  let settled = false
  let clientGone = false
  const settle = (result: 'ok' | 'unreachable' | 'aborted') => {
    if (settled) return
    settled = true
    countInThread('forwarded', { result })
  }
  out.setTimeout(ANSWER_TIMEOUT_MS, () => out.destroy(new Error('no answer in time')))
  out.on('response', answer => {
    out.setTimeout(0)
    res.status(answer.statusCode ?? 502)
    for (const [name, value] of Object.entries(passable(answer.headers))) res.setHeader(name, value)
    answer.pipe(res)
    answer.on('end', () => settle('ok'))
    answer.on('error', () => res.destroy())
  })
  out.on('error', () => {
    if (res.headersSent) {
      settle('aborted')
      res.destroy()
      return
    }
    // (not req.destroyed: a request whose body was read to the end is destroyed too)
    if (clientGone) {
      settle('aborted')
      return
    }
    settle('unreachable')
    options.onError(new GatewayError('NODE_UNREACHABLE'))
  })
  // the client went away before the whole answer: abort the forwarded request too
  res.on('close', () => {
    if (res.writableFinished) return
    clientGone = true
    settle('aborted')
    out.destroy()
  })
  req.pipe(out)
}

/** Closes the idle keep-alive connections to the other nodes (shutdown). */
export function closeForwardAgents(): void {
  for (const agent of agents.values()) agent.destroy()
  agents.clear()
}
