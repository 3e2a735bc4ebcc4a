/**
 * @module http/openapi/paths
 * Every path the gateway serves, operation by operation, in zod-openapi's form (zod schemas where OpenAPI wants
 * JSON Schema). Tags follow the README's API section. The ops probes are plain paths with no headers.
 */
import type { ZodOpenApiOperationObject, ZodOpenApiPathsObject } from 'zod-openapi'
import {
  channelQuerySchema, groupIdSchema, postStatusBodySchema, sendMessageBodySchema, sessionHeadersSchema, typingBodySchema,
  viewTokenHeaderSchema,
} from './request-schemas.js'
import {
  channelPageSchema, channelSchema, createdSessionSchema, groupMemberSchema, groupSchema, healthSchema, listOf,
  messageIdSchema, notReadySchema, qrViewSchema, readySchema, sessionIdOnlySchema, sessionSchema, statusIdSchema,
  viewLinkSchema,
} from './response-schemas.js'
import { GUARDED, GUARDED_WITH_BODY, errorWith, jsonContent, ok, responses } from './responses.js'
import { z } from 'zod'

const header = sessionHeadersSchema

/** A guarded operation: the two session headers plus whatever else it takes. */
const guarded = (operation: ZodOpenApiOperationObject): ZodOpenApiOperationObject =>
  ({ ...operation, requestParams: { ...operation.requestParams, header } })

const jsonBody = (schema: z.ZodType) => ({ required: true, content: jsonContent(schema) })

export const paths: ZodOpenApiPathsObject = {
  '/session': {
    post: {
      operationId: 'createSession', tags: ['Session'], summary: 'Create a session',
      description: 'No headers, no body (with `CREATE_SESSION_TOKEN` set: `authorization: Bearer <token>`). The QR ' +
        'follows in the background: poll GET /session for it.',
      responses: responses(ok(createdSessionSchema, 'The new session\'s credentials'), 401, 429, 500, 503),
    },
    get: guarded({
      operationId: 'getSession', tags: ['Session'], summary: 'Read a session',
      description: 'Poll every 2 to 3 s while pairing. Answered from a cache: never waits behind the session\'s work.',
      responses: responses(ok(sessionSchema, 'The session'), 400, 404, 500),
    }),
    delete: guarded({
      operationId: 'deleteSession', tags: ['Session'], summary: 'Delete a session (not in the spec)',
      description: 'Logs out if paired, deletes the session and all its data; 404 `session not found` from then on.',
      responses: responses(ok(sessionIdOnlySchema, 'The deleted session\'s id'), ...GUARDED),
    }),
  },
  '/session/reset': {
    post: guarded({
      operationId: 'resetSession', tags: ['Session'], summary: 'Restart QR pairing (not in the spec)',
      description: 'Logs a connected device out and clears its credentials; a new QR and a new 3-minute window follow.',
      responses: responses(ok(createdSessionSchema, 'The same credentials'), ...GUARDED),
    }),
  },
  '/session/view-link': {
    post: guarded({
      operationId: 'createViewLink', tags: ['Session'], summary: 'A view-only link to the QR page (not in the spec)',
      description: 'A link to the QR page that shows this session\'s QR and nothing else, for whoever holds the phone: ' +
        'its token is not the `session-id`, works on no other endpoint, and stops at the end of the QR window, once ' +
        'the session is paired, or when it is reset or deleted.',
      responses: {
        ...responses(ok(viewLinkSchema, 'The link and when it expires at the latest'), 400, 404, 500, 503),
        409: errorWith('`session is already paired; there is no QR to show`'),
      },
    }),
  },
  '/session/qr': {
    get: {
      operationId: 'viewQr', tags: ['Session'], summary: 'The QR a view-only link shows (not in the spec)',
      description: 'What the QR page polls with a view link\'s token, every 2 to 3 s. Takes no `id` or `session-id`.',
      requestParams: { header: viewTokenHeaderSchema },
      responses: {
        200: ok(qrViewSchema, 'The session\'s current QR'),
        400: errorWith('`invalid header`: header `view-token` missing or empty'),
        404: errorWith('`view link not found or expired`: unknown, expired or revoked token, or its session is gone'),
        410: errorWith('`the session is linked; this view link no longer works`: the phone paired the session'),
        500: errorWith('`internal server error`'),
      },
    },
  },
  '/message': {
    post: guarded({
      operationId: 'sendMessage', tags: ['Messages'], summary: 'Send a message',
      description: 'Answers once the platform server acknowledged the message. Media is downloaded from its URL.',
      requestBody: jsonBody(sendMessageBodySchema),
      responses: responses(ok(messageIdSchema, 'The platform accepted the message'), ...GUARDED_WITH_BODY),
    }),
  },
  '/status': {
    post: guarded({
      operationId: 'postStatus', tags: ['Messages'], summary: 'Post a status',
      requestBody: jsonBody(postStatusBodySchema),
      responses: responses(ok(statusIdSchema, 'The platform accepted the status'), ...GUARDED_WITH_BODY),
    }),
  },
  '/typing': {
    post: guarded({
      operationId: 'sendTyping', tags: ['Messages'], summary: 'Show typing or recording for 5 seconds',
      requestBody: jsonBody(typingBodySchema),
      responses: responses(ok(sessionIdOnlySchema, 'The session\'s own id (not a message ID)'), ...GUARDED_WITH_BODY),
    }),
  },
  '/group': {
    get: guarded({
      operationId: 'listGroups', tags: ['Groups'], summary: 'List the account\'s groups',
      responses: responses(ok(listOf(groupSchema, 'GroupList'), 'Every group the account is in'), ...GUARDED),
    }),
  },
  '/group/member': {
    get: guarded({
      operationId: 'listGroupMembers', tags: ['Groups'], summary: 'List a group\'s members',
      requestParams: { query: z.object({ groupId: groupIdSchema }) },
      responses: responses(ok(listOf(groupMemberSchema, 'GroupMemberList'), 'The members'), ...GUARDED),
    }),
  },
  '/group/{groupId}': {
    get: guarded({
      operationId: 'getGroup', tags: ['Groups'], summary: 'Read one group',
      requestParams: { path: z.object({ groupId: groupIdSchema }) },
      responses: responses(ok(groupSchema, 'The group'), ...GUARDED),
    }),
  },
  '/channel': {
    get: guarded({
      operationId: 'listChannels', tags: ['Channels'], summary: 'List the account\'s channels',
      responses: responses(ok(listOf(channelSchema, 'ChannelList'), 'Every channel the account follows or owns'), ...GUARDED),
    }),
  },
  '/channel/message': {
    get: guarded({
      operationId: 'listChannelMessages', tags: ['Channels'], summary: 'Read a channel\'s history',
      description: 'Newest first, up to 100 a page; send the returned `before` as the next `before` until it is 0.',
      requestParams: { query: channelQuerySchema },
      responses: responses(ok(channelPageSchema, 'One page of messages'), ...GUARDED),
    }),
  },
  '/healthz': {
    get: {
      operationId: 'health', tags: ['Operations'], summary: 'Liveness probe',
      responses: { 200: ok(healthSchema, 'The process is up') },
    },
  },
  '/readyz': {
    get: {
      operationId: 'ready', tags: ['Operations'], summary: 'Readiness probe',
      responses: {
        200: ok(readySchema, 'Ready to serve'),
        503: { description: 'Not ready yet', content: jsonContent(notReadySchema) },
      },
    },
  },
}
