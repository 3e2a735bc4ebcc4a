/**
 * @module http/server
 * The gateway's HTTP server around the express app: client errors answered in the spec's shape
 * (`client-errors.ts`), and timeouts that bound what a slow or silent client can hold. Node's defaults let a
 * connection that never finishes its headers (a slowloris, or a client that sent only blank lines) sit for 60 s,
 * checked every 30 s; here it gets 408 `request timeout` after HEADERS_TIMEOUT_MS, checked every second.
 * An idle kept-alive connection stays open KEEP_ALIVE_TIMEOUT_MS (Node closes it after 5 s): a client pool or a
 * load balancer that reuses it later than that would otherwise race the close and get `ECONNRESET` or `socket hang
 * up` for a request the gateway never saw.
 *
 * Every request target must be a path (origin form, RFC 9112 §3.2.1). A target in absolute form
 * (`POST http://10.0.0.5/session`), authority form (`CONNECT host:443`) or asterisk form (`OPTIONS *`) is refused
 * with 400 before the app sees it: nothing downstream builds a URL from a host the client named, in either mode.
 *
 * Open connections per client and in all are capped, and an answer its client does not read within
 * ANSWER_WRITE_TIMEOUT_MS is cut (connections/connection-guard.ts).
 *
 * With TLS_CERT_FILE and TLS_KEY_FILE the same server speaks HTTPS (what `https://` in ADVERTISE_URL needs for the
 * traffic between cluster nodes; docs/cluster.md).
 */
import { readFileSync } from 'node:fs'
import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http'
import { createServer } from 'node:http'
import { createServer as createTlsServer } from 'node:https'
import { answerBeforeApp, answerClientErrors } from './client-errors.js'
import type { ConnectionGuard } from './connections/connection-guard.js'

/** Time to receive a request's headers. */
const HEADERS_TIMEOUT_MS = 10_000
/** Time to receive a whole request (bodies are JSON of at most BODY_LIMIT_BYTES; media come by URL). */
const REQUEST_TIMEOUT_MS = 30_000
/** Idle time before the server closes a kept-alive connection: above the 60 s idle timeout common load balancers
 * use, so the side that closes first is theirs (announced in the `Keep-Alive: timeout=65` response header). A client
 * can hold a connection open by using it whatever this is, so a shorter one would not bound a hostile client. */
const KEEP_ALIVE_TIMEOUT_MS = 65_000

/** Whether a request target is a path: `/…` (a bare `*` or `host:port` or `scheme://…` is not). */
export const isOriginForm = (target: string | undefined): boolean => target?.startsWith('/') === true

export interface TlsFiles {
  certFile: string
  keyFile: string
}

/**
 * `connections`: the caps on open connections and the write time-out (connections/connection-guard.ts); main.ts
 * passes the one whose counts /metrics shows.
 */
export function createHttpServer(app: RequestListener, tls?: TlsFiles, connections?: ConnectionGuard): Server {
  const options = {
    headersTimeout: HEADERS_TIMEOUT_MS,
    requestTimeout: REQUEST_TIMEOUT_MS,
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    connectionsCheckingInterval: 1000,
  }
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    // a connection past a cap was answered 503 when it opened: what it sends after that is not served
    if (connections?.isRefused(req.socket)) req.socket.destroy()
    else if (isOriginForm(req.url)) app(req, res)
    else answerBeforeApp(res, 'TARGET_NOT_PATH')
  }
  const server: Server = tls
    ? createTlsServer({ ...options, cert: readFileSync(tls.certFile), key: readFileSync(tls.keyFile) }, listener)
    : createServer(options, listener)
  answerClientErrors(server)
  connections?.attach(server, tls !== undefined)
  return server
}
