/**
 * @module cluster/forward
 * Forwards one authenticated request to the node running its session and streams the answer back. The body was
 * read whole on this node first (at most BODY_LIMIT_BYTES, within the request time-out): a client that stalls its
 * body holds its own connection to this node, never one to another node. The target is the peer's origin (from its
 * signed node record) plus the request's path and query: never a host the client named.
 *
 * One keep-alive agent per peer, at most CLUSTER_FORWARD_SOCKETS connections, http or https (CLUSTER_CA_FILE); a
 * request that waits longer than the queue time-out for one gets 503 NODE_BUSY. A waiting GET /session holds its
 * connection for up to SESSION_WAIT_MAX_SECONDS doing nothing: waits go on a lane of their own, a second agent per
 * peer (at most SESSION_WAITS_PER_PROCESS connections, as many as the peer would hold), so however many clients
 * wait, a send never queues behind them for a connection. A peer whose connection fails
 * gets the client a 503 NODE_UNREACHABLE (Retry-After 1), unless the answer had begun, in which case the client's
 * connection is cut. Nothing is retried here except an answer the owner marked "moving": it did not run the
 * request (cluster/front.ts then asks again where the session is). Every failure of this path is one of those:
 * nothing it does can throw past it.
 *
 * The whole exchange is bounded: the answer must begin within ANSWER_TIMEOUT_MS and then be read through within
 * CLUSTER_FORWARD_ANSWER_MS, never standing still CLUSTER_FORWARD_STALL_MS (./forward-answer.ts), so a client that
 * does not read its answer holds a connection between the nodes for that long at most.
 */
import http from 'node:http'
import https from 'node:https'
import type { OutgoingHttpHeaders } from 'node:http'
import type { Request, Response } from 'express'
import { GatewayError } from '../protocol/errors.js'
import { countInThread } from '../metrics/thread-counters.js'
import { MOVING_HEADER } from '../http/api-paths.js'
import { requestOrigin } from '../http/front-seam.js'
import { PEER_CLIENT_HEADER, PEER_HEADER, PEER_ORIGIN_HEADER, peerRequestOf, type PeerAuth } from './peer-auth.js'
import { type AnswerBounds, passable, relayAnswer } from './forward-answer.js'

/** How long a forwarded request may wait for its answer to begin: past the longest a send waits for its ack. */
const ANSWER_TIMEOUT_MS = 120_000

export interface PeerNode {
  node: string
  /** Its ADVERTISE_URL origin. */
  url: string
}

export interface ForwarderOptions {
  auth: PeerAuth
  /** Connections per peer (CLUSTER_FORWARD_SOCKETS). */
  socketsPerPeer: number
  /** Connections per peer for waiting GET /session requests (SESSION_WAITS_PER_PROCESS). */
  waitSocketsPerPeer: number
  /** How long a request may wait for one of them. */
  queueTimeoutMs: number
  /** How long an answer may take, once begun, and stand still (./forward-answer.ts). */
  answer: AnswerBounds
  /** Trust anchors for https peers (CLUSTER_CA_FILE); default: the system's. */
  ca?: string | Buffer | undefined
}

/**
 * 'answered': the peer's answer went to the client (or the client left). 'moving': the peer answered that the
 * session is on its way (SESSION_MOVING, marked), having run nothing. 'not-sent': the request never reached the
 * peer's application (connection refused, or a kept-alive connection the peer had closed reset before any answer,
 * which HTTP clients treat as safe to send again). Nothing was sent to the client in the last two cases.
 */
export type ForwardOutcome = 'answered' | 'moving' | 'not-sent'

/** Which of a peer's connection pools a request takes: a wait holds its connection idle, so it never takes a request's. */
export type Lane = 'request' | 'wait'

const notSent = (err: NodeJS.ErrnoException, reused: boolean): boolean =>
  err.code === 'ECONNREFUSED' || (reused && (err.code === 'ECONNRESET' || err.code === 'EPIPE'))

export class Forwarder {
  readonly #o: ForwarderOptions
  /** Per lane, the agent of each peer origin. */
  readonly #agents: Record<Lane, Map<string, http.Agent>> = { request: new Map(), wait: new Map() }

  constructor(options: ForwarderOptions) {
    this.#o = options
  }

  #agentFor(origin: URL, lane: Lane): http.Agent {
    const agents = this.#agents[lane]
    let agent = agents.get(origin.origin)
    if (!agent) {
      const maxSockets = lane === 'wait' ? this.#o.waitSocketsPerPeer : this.#o.socketsPerPeer
      const shape = { keepAlive: true, maxSockets, scheduling: 'lifo' as const }
      agent =
        origin.protocol === 'https:'
          ? new https.Agent({ ...shape, ...(this.#o.ca ? { ca: this.#o.ca } : {}) })
          : new http.Agent(shape)
      agents.set(origin.origin, agent)
    }
    return agent
  }

  /** A request to `origin` + `path` (never a host from anywhere else), on the peer's pooled connections. */
  #request(origin: URL, method: string, path: string, headers: OutgoingHttpHeaders, lane: Lane): http.ClientRequest {
    const request = origin.protocol === 'https:' ? https.request : http.request
    return request({
      protocol: origin.protocol,
      hostname: origin.hostname.replace(/^\[|\]$/g, ''),
      port: origin.port || (origin.protocol === 'https:' ? 443 : 80),
      path,
      method,
      headers,
      agent: this.#agentFor(origin, lane),
    })
  }

  /** Drops the agents of peers that are no longer live (their connections close). */
  retain(liveUrls: ReadonlySet<string>): void {
    for (const agents of Object.values(this.#agents))
      for (const [origin, agent] of agents) {
        if (liveUrls.has(origin)) continue
        agent.destroy()
        agents.delete(origin)
      }
  }

  close(): void {
    for (const agents of Object.values(this.#agents)) {
      for (const agent of agents.values()) agent.destroy()
      agents.clear()
    }
  }

  /**
   * A node's own signed request to a peer (no client behind it), e.g. "adopt these sessions now": resolves with
   * the answer's status, rejects when the peer cannot be reached within `timeoutMs`.
   */
  call(peer: PeerNode, path: string, json: unknown, timeoutMs: number): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      const body = Buffer.from(JSON.stringify(json))
      const origin = new URL(peer.url)
      const headers: OutgoingHttpHeaders = {
        'content-type': 'application/json',
        'content-length': String(body.length),
        [PEER_CLIENT_HEADER]: 'node',
      }
      headers[PEER_HEADER] = this.#o.auth.sign(
        peer.node,
        peerRequestOf('POST', path, headers as Record<string, string>, 'node'),
      )
      const out = this.#request(origin, 'POST', path, headers, 'request')
      out.setTimeout(timeoutMs)
      out.on('timeout', () => out.destroy(new Error(`no answer from ${peer.node} in ${timeoutMs} ms`)))
      out.on('error', reject)
      out.on('response', answer => {
        answer.resume()
        resolve(answer.statusCode ?? 0)
      })
      out.end(body)
    })
  }

  /**
   * Sends `req` (its `body` already read) to `peer` for `client`, on `lane`'s connections, and streams the answer
   * to `res`; rejects only with a GatewayError to answer the client with (nothing was sent to it yet).
   */
  forward(
    req: Request,
    res: Response,
    peer: PeerNode,
    body: Buffer,
    client: string,
    lane: Lane = 'request',
  ): Promise<ForwardOutcome> {
    return new Promise<ForwardOutcome>((resolve, reject) => {
      let settled = false
      const settle = (
        result: 'ok' | 'unreachable' | 'aborted' | 'busy' | 'moving' | 'cut',
        outcome?: Error | ForwardOutcome,
      ) => {
        if (settled) return
        settled = true
        countInThread('forwarded', { result })
        if (outcome instanceof Error) reject(outcome)
        else resolve(outcome ?? 'answered')
      }
      let out: http.ClientRequest
      try {
        const origin = new URL(peer.url)
        const target = req.originalUrl
        const headers = passable(req.headers)
        headers['content-length'] = String(body.length)
        headers[PEER_CLIENT_HEADER] = client
        // where the client reached this node: what a view link names, not the owner's address (http/request-origin)
        headers[PEER_ORIGIN_HEADER] = requestOrigin(req) ?? ''
        const signed = peerRequestOf(
          req.method,
          target,
          { ...req.headers, 'content-length': String(body.length), [PEER_ORIGIN_HEADER]: headers[PEER_ORIGIN_HEADER] },
          client,
        )
        headers[PEER_HEADER] = this.#o.auth.sign(peer.node, signed)
        out = this.#request(origin, req.method, target, headers, lane)
      } catch {
        // a peer address or a target node's http client will not take: the same as a peer that does not answer
        settle('unreachable', new GatewayError('NODE_UNREACHABLE'))
        return
      }
      let clientGone = false
      const queued = setTimeout(() => {
        settle('busy', new GatewayError('NODE_BUSY'))
        out.destroy()
      }, this.#o.queueTimeoutMs)
      out.once('socket', () => clearTimeout(queued))
      out.setTimeout(ANSWER_TIMEOUT_MS, () => out.destroy(new Error('no answer in time')))
      out.on('response', answer => {
        out.setTimeout(0)
        if (answer.statusCode === 503 && answer.headers[MOVING_HEADER] === '1') {
          answer.resume()
          settle('moving', 'moving')
          return
        }
        relayAnswer(answer, res, this.#o.answer, end => settle(end))
      })
      let answered = false
      out.once('response', () => {
        answered = true
      })
      out.on('error', (err: NodeJS.ErrnoException) => {
        clearTimeout(queued)
        if (settled) return
        if (res.headersSent || clientGone) {
          settle('aborted')
          res.destroy()
          return
        }
        if (!answered && notSent(err, out.reusedSocket)) settle('unreachable', 'not-sent')
        else settle('unreachable', new GatewayError('NODE_UNREACHABLE'))
      })
      // the client went away before the whole answer: abort the forwarded request too
      res.on('close', () => {
        if (res.writableFinished) return
        clientGone = true
        clearTimeout(queued)
        settle('aborted')
        out.destroy()
      })
      if (body.length > 0) out.end(body)
      else out.end()
    })
  }
}
