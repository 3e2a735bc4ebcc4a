/**
 * @module test/support/cluster-front
 * The world of cluster/front.ts's tests: a real owner node on loopback that checks the peer signature as a node
 * does, records what reached it and echoes the body (or answers "moving" `movingAnswers` times first, or never
 * answers `/message/slow` and the waits `?wait=30`), and `appWith()`, an app behind the front with a fake route
 * table and session check, whose own routes tell the client and origin they saw. Call `ownerNode()` at a test
 * file's top level: it registers its own beforeAll, afterAll and beforeEach.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import express from 'express'
import pino from 'pino'
import { afterAll, beforeAll, beforeEach } from 'vitest'
import { Forwarder } from '../../src/cluster/forward.js'
import { clusterFront, type FrontParts } from '../../src/cluster/front.js'
import { PEER_CLIENT_HEADER, PEER_HEADER, PeerAuth, peerRequestOf } from '../../src/cluster/peer-auth.js'
import type { ClusterRoutes, Route } from '../../src/cluster/routing.js'
import type { ClusterSessionAuth } from '../../src/cluster/session-auth.js'
import { ViewTokenRoutes } from '../../src/cluster/view-token-routes.js'
import { requestClientKey } from '../../src/http/client-key.js'
import { clientOrigin } from '../../src/http/request-origin.js'
import { errorHandler } from '../../src/http/errors.js'
import { MOVING_HEADER } from '../../src/http/api-paths.js'
import { jsonBody } from '../../src/http/json-body.js'
import { waitFor } from './wait-for.js'

export const SECRET = 'a-cluster-secret-for-the-front-tests-0123'
export const SESSION = { id: 's1', 'session-id': 'right-secret' }

export interface Seen {
  method: string
  url: string
  headers: http.IncomingHttpHeaders
  body: string
  /** The forwarding node, when the signature held for this node. */
  from: string | undefined
}

let owner: http.Server
let ownerUrl = ''
/** What reached the owner (emptied before each test). */
export const seen: Seen[] = []
/** The owner's counts: requests whose client went away before the answer; "moving" answers still to give. */
export const ownerState = { closed: 0, movingAnswers: 0 }
const ownerAuth = new PeerAuth(SECRET, 'node-b')

export function ownerNode(): void {
  beforeAll(async () => {
    owner = http.createServer((req, res) => {
      let body = ''
      req.on('data', c => {
        body += c
      })
      req.on('close', () => {
        if (!res.writableEnded) ownerState.closed++
      })
      req.on('end', () => {
        const client = typeof req.headers[PEER_CLIENT_HEADER] === 'string' ? req.headers[PEER_CLIENT_HEADER] : ''
        const from = ownerAuth.verify(
          req.headers[PEER_HEADER] as string | undefined,
          peerRequestOf(req.method!, req.url!, req.headers, client),
        )
        seen.push({ method: req.method!, url: req.url!, headers: req.headers, body, from })
        // never answers: the client gives up
        if (req.url === '/message/slow' || req.url === '/session?wait=30' || req.url === '/session/qr?wait=30') return
        if (ownerState.movingAnswers > 0) {
          ownerState.movingAnswers--
          res.writeHead(503, { [MOVING_HEADER]: '1', 'content-type': 'application/json' })
          res.end('{"statusCode":503,"message":"session is moving to another node, retry in 1 s"}')
          return
        }
        res.writeHead(201, { 'content-type': 'application/json', 'x-owner': 'yes' })
        res.end(JSON.stringify({ echoed: body }))
      })
    })
    owner.listen(0, '127.0.0.1')
    await new Promise(r => owner.once('listening', r))
    ownerUrl = `http://127.0.0.1:${(owner.address() as AddressInfo).port}`
  })
  afterAll(() => {
    owner.closeAllConnections()
    owner.close()
  })
  beforeEach(() => {
    seen.length = 0
    ownerState.movingAnswers = 0
  })
}

export interface Options {
  routeOf?: (id: string) => Route
  runsHere?: (id: string) => boolean
  auth?: PeerAuth
  perSessionInFlight?: number
  socketsPerPeer?: number
  waitsPerSession?: number
  moveWaitMs?: number
  answerMs?: number
  stallMs?: number
}

/** The cluster's view-token routes (cluster/view-token-routes.ts), under the tests' cluster secret. */
export const viewTokens = new ViewTokenRoutes(SECRET)

export const toOwner = (): Route => ({ to: 'node', peer: { node: 'node-b', url: ownerUrl } })

export function appWith(o: Options = {}) {
  const auth = o.auth ?? new PeerAuth(SECRET, 'node-a')
  const checked: string[] = []
  const parts: FrontParts = {
    auth,
    sessions: {
      authenticLocally: (id: string, secret: string) =>
        (o.runsHere ?? (() => false))(id) && secret === SESSION['session-id'],
      authenticate: async (id: string, secret: string) => {
        checked.push(id)
        return id !== 'unknown' && secret === SESSION['session-id']
      },
    } as unknown as ClusterSessionAuth,
    routes: { locate: async (id: string) => (o.routeOf ?? toOwner)(id) } as unknown as ClusterRoutes,
    forwarder: new Forwarder({
      auth,
      socketsPerPeer: o.socketsPerPeer ?? 4,
      waitSocketsPerPeer: 4,
      queueTimeoutMs: 2_000,
      answer: { answerMs: o.answerMs ?? 10_000, stallMs: o.stallMs ?? 10_000 },
    }),
    runsHere: o.runsHere ?? (() => false),
    leaving: () => false,
    adoptNow: async () => undefined,
    viewTokens,
    bodyLimitBytes: 1024,
    perSessionInFlight: o.perSessionInFlight ?? 32,
    waitsPerSession: o.waitsPerSession ?? 4,
    moveWaitMs: o.moveWaitMs ?? 2_000,
  }
  const app = express()
  app.use(clusterFront(parts))
  app.post(/.*/, jsonBody(1024), (req, res) => {
    res.json({ handledHere: true, client: requestClientKey(req), body: req.body })
  })
  app.all(/.*/, (req, res) => {
    res.json({ handledHere: true, client: requestClientKey(req), origin: clientOrigin(req) ?? null })
  })
  app.use(errorHandler(pino({ level: 'silent' })))
  return { app, checked, auth }
}

/** `app` on a free loopback port. */
export async function listening(app: express.Express): Promise<{ server: http.Server; port: number }> {
  const server = app.listen(0, '127.0.0.1')
  await new Promise(r => server.once('listening', r))
  return { server, port: (server.address() as AddressInfo).port }
}

/** Resolves once the owner received a request for `url`; throws (naming it) when none came within 2 s. */
export async function ownerSaw(url: string): Promise<void> {
  await waitFor(`the owner to receive a request for ${url}`, () => seen.some(s => s.url === url), 2_000, 20)
}
