/**
 * @module http/ops/request-id
 * Every request gets an id for the logs: the caller's `x-request-id` when it is a sane token (so a proxy's id
 * follows the request through), else a fresh UUID. The response echoes it in `x-request-id`.
 */
import { randomUUID } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'

const REQUEST_ID_HEADER = 'x-request-id'

/** Up to 128 characters of letters, digits and `-_.:`: nothing that could forge a log line or grow it. */
const SANE_ID = /^[\w.:-]{1,128}$/

export function requestIdOf(req: IncomingMessage, res: ServerResponse): string {
  const incoming = req.headers[REQUEST_ID_HEADER]
  const id = typeof incoming === 'string' && SANE_ID.test(incoming) ? incoming : randomUUID()
  res.setHeader(REQUEST_ID_HEADER, id)
  return id
}
