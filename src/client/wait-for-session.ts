/**
 * @module client/wait-for-session
 * `waitForSession`: follows GET /session until the session is in the state the caller waits for (its QR shown,
 * connected, disconnected...), without polling. Each request after the first sends the ETag of the last answer
 * (`If-None-Match`) and `?wait=`, so the gateway answers the moment the session changes, or with 304 when nothing
 * changed within the wait, and the helper asks again. The state is judged on the gateway's Session object, the
 * spec's, so `until` is the same test a polling client would make.
 *
 * The gateway's limits are followed, not fought: a 429 (too many waits) or a 503 (shutting down, the session moving
 * to another node) waits its `Retry-After` and asks again; a 304 that came back at once (waiting turned off at the
 * gateway) falls back to the spec's polling every 2 s. Any other error (404 once the session is gone: its QR
 * expired, it was deleted) rejects with a `SessionWaitError`.
 *
 * @example
 * const gateway = createGatewayClient('http://127.0.0.1:3000')
 * const { qrcode } = await waitForSession(gateway, session, s => s.qrcode !== '') // the first QR
 * await waitForSession(gateway, session, s => s.isConnected, { timeoutMs: 180_000 }) // the phone scanned it
 */
import type { components } from './schema.js'
import type { GatewayClient, SessionCredentials } from './index.js'

export type Session = components['schemas']['Session']

export interface WaitForSessionOptions {
  /** Seconds one request may wait at the gateway (default 25; the gateway cuts it to SESSION_WAIT_MAX_SECONDS). */
  waitSeconds?: number
  /** Give up after this long: rejects with a `SessionWaitError` of status 0. Default: no limit. */
  timeoutMs?: number
  /** Stops waiting (the request in flight is aborted, which frees its slot at the gateway at once). */
  signal?: AbortSignal
}

/** The gateway answered an error while the helper waited, or the wait timed out (`statusCode` 0). */
export class SessionWaitError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message)
    this.name = 'SessionWaitError'
  }
}

/** The spec's polling interval, for a gateway that does not wait. */
const POLL_MS = 2_000
/** A 304 faster than this did not wait. */
const WAITED_MS = 1_000

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(done, ms)
    function done() {
      signal?.removeEventListener('abort', done)
      clearTimeout(timer)
      if (signal?.aborted) reject(signal.reason)
      else resolve()
    }
    signal?.addEventListener('abort', done, { once: true })
  })

const retryAfterMs = (response: Response): number => {
  const seconds = Number(response.headers.get('retry-after'))
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : POLL_MS
}

/** Resolves with the first Session for which `until` is true (the current one, if it already is). */
export async function waitForSession(
  gateway: GatewayClient,
  session: SessionCredentials,
  until: (session: Session) => boolean,
  options: WaitForSessionOptions = {},
): Promise<Session> {
  const { waitSeconds = 25, timeoutMs, signal: outer } = options
  const signal =
    timeoutMs === undefined ? outer : AbortSignal.any([...(outer ? [outer] : []), AbortSignal.timeout(timeoutMs)])
  let etag: string | undefined
  try {
    for (;;) {
      signal?.throwIfAborted()
      const asked = Date.now()
      const header = { id: session.id, 'session-id': session.sessionId, ...(etag ? { 'if-none-match': etag } : {}) }
      const { data, error, response } = await gateway.GET('/session', {
        params: { header, ...(etag ? { query: { wait: waitSeconds } } : {}) },
        ...(signal ? { signal } : {}),
      })
      if (response.status === 200 && data) {
        if (until(data)) return data
        etag = response.headers.get('etag') ?? undefined
        if (etag === undefined) await sleep(POLL_MS, signal) // a gateway without ETags: poll
      } else if (response.status === 304) {
        if (Date.now() - asked < WAITED_MS) await sleep(POLL_MS, signal)
      } else if (response.status === 429 || response.status === 503) {
        await sleep(retryAfterMs(response), signal)
      } else {
        const message = (error as { message?: string } | undefined)?.message ?? response.statusText
        throw new SessionWaitError(response.status, message)
      }
    }
  } catch (err) {
    if (signal?.aborted && !outer?.aborted)
      throw new SessionWaitError(0, `the session did not reach the state waited for within ${timeoutMs} ms`)
    throw err
  }
}
