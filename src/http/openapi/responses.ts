/**
 * @module http/openapi/responses
 * Response objects of the document: a 200 with its body, and the error statuses an endpoint can answer with, each
 * with the shared `Error` body and the messages of SPEC "Errors" and docs/api.md's "Decisions".
 */
import type { ZodOpenApiResponseObject, ZodOpenApiResponsesObject } from 'zod-openapi'
import type { z } from 'zod'
import { ERRORS, type ErrorCode } from '../../protocol/errors.js'
import { errorBodySchema } from './response-schemas.js'

export const RETRY_AFTER_HEADER = {
  'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'string' as const } },
}

const wwwAuthenticate = {
  'WWW-Authenticate': { description: 'The scheme to authenticate with: `Bearer`', schema: { type: 'string' as const } },
}

/** `message` in backquotes, as the descriptions show it. */
export const quoted = (message: string) => `\`${message}\``

/** The message of `code`, quoted. */
export const messageOf = (code: ErrorCode) => quoted(ERRORS[code].message)

const ERROR_DESCRIPTIONS = {
  400:
    `${messageOf('INVALID_HEADER')} (header \`id\` or \`session-id\` missing or empty), or the request broke ` +
    'validation rules (every failing rule, joined by a line break)',
  401:
    `${messageOf('UNAUTHORIZED')} (with \`WWW-Authenticate: Bearer\`): only when the gateway is started ` +
    'with `CREATE_SESSION_TOKEN`, and the request lacks `authorization: Bearer <that token>`',
  404: `${messageOf('SESSION_NOT_FOUND')}: unknown or deleted session, or a wrong \`session-id\``,
  413: messageOf('BODY_TOO_LARGE'),
  415: messageOf('UNSUPPORTED_MEDIA_TYPE'),
  429:
    `${messageOf('TOO_MANY_REQUESTS')}: the client created too many sessions in the last minute, or holds ` +
    'too many unpaired ones; or the session is over one of its limits (commands in flight, sends, reads, resets, ' +
    'deletes, pairing codes): the message says which and when to retry',
  500:
    `${messageOf('SESSION_NOT_CONNECTED')}, the operation failed (media download, unknown group or channel, ` +
    `the platform rejected the message or did not acknowledge in time), or ${messageOf('INTERNAL')}`,
  503:
    `${messageOf('OVERLOADED')}: the session's worker thread holds twice its queue limit; in cluster mode ` +
    `also ${messageOf('SESSION_MOVING')} (the session is between two nodes) and ` +
    `${messageOf('NODE_UNREACHABLE')} (the node it was forwarded to did not answer); for the reads of groups and ` +
    `channels also ${messageOf('ANSWERS_BACKLOGGED')} (the answers waiting for slow clients fill the server's budget)`,
} as const

export type ErrorStatus = keyof typeof ERROR_DESCRIPTIONS

export const jsonContent = (schema: z.ZodType) => ({ 'application/json': { schema } })

export const ok = (schema: z.ZodType, description: string): ZodOpenApiResponseObject => ({
  description,
  content: jsonContent(schema),
})

function errorResponse(status: ErrorStatus): ZodOpenApiResponseObject {
  const response: ZodOpenApiResponseObject = {
    description: ERROR_DESCRIPTIONS[status],
    content: jsonContent(errorBodySchema),
  }
  if (status === 429 || status === 503) response.headers = RETRY_AFTER_HEADER
  if (status === 401) response.headers = wwwAuthenticate
  return response
}

/** An error response with its own description (statuses only one endpoint answers with). */
export const errorWith = (description: string): ZodOpenApiResponseObject => ({
  description,
  content: jsonContent(errorBodySchema),
})

/** The 200 plus the listed error statuses. */
export function responses(success: ZodOpenApiResponseObject, ...errors: ErrorStatus[]): ZodOpenApiResponsesObject {
  return { 200: success, ...Object.fromEntries(errors.map(status => [status, errorResponse(status)])) }
}

/** Statuses of every endpoint behind the authentication that runs a command on the session's worker. */
export const AUTHENTICATED: readonly ErrorStatus[] = [400, 404, 429, 500, 503]
/** ...and of those that also read a JSON body. */
export const AUTHENTICATED_WITH_BODY: readonly ErrorStatus[] = [400, 404, 413, 415, 429, 500, 503]
