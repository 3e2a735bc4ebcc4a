/**
 * @module platform/baileys/boom
 * Reading Baileys' failures. Baileys throws (and reports `lastDisconnect.error` as) a Boom whose
 * `output.statusCode` carries a `DisconnectReason`; two of them matter on the way of an operation: its own query
 * timeout and a socket that closed meanwhile. One reader here instead of a cast in every file.
 */

/** `DisconnectReason.timedOut`: a query got no answer in its own time (also "connection lost" on a close). */
const QUERY_TIMED_OUT = 408
/** `DisconnectReason.connectionClosed`: the socket closed while the operation was under way. */
const CONNECTION_CLOSED = 428

/** `err.output.statusCode`, or undefined when `err` is not a Boom. */
export const boomStatusCode = (err: unknown): number | undefined =>
  (err as { output?: { statusCode?: number } } | undefined)?.output?.statusCode

export const isQueryTimeout = (err: unknown): boolean => boomStatusCode(err) === QUERY_TIMED_OUT

export const isConnectionClosed = (err: unknown): boolean => boomStatusCode(err) === CONNECTION_CLOSED
