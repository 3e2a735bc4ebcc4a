/**
 * @module http/openapi/paths
 * Every path the gateway serves, operation by operation, in zod-openapi's form (zod schemas where OpenAPI wants
 * JSON Schema). Tags follow the README's API section. The ops probes are plain paths with no headers.
 */
import type { ZodOpenApiOperationObject, ZodOpenApiPathsObject } from 'zod-openapi'
import {
  channelQuerySchema, groupIdSchema, postStatusBodySchema, sendMessageBodySchema, sessionHeadersSchema, typingBodySchema,
} from './request-schemas.js'
import {
  channelPageSchema, channelSchema, createdSessionSchema, groupMemberSchema, groupSchema, healthSchema, listOf,
  messageIdSchema, notReadySchema, readySchema, sessionIdOnlySchema, sessionSchema, statusIdSchema,
} from './response-schemas.js'
import { GUARDED, GUARDED_WITH_BODY, jsonContent, ok, responses } from './responses.js'
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
