/**
 * @module http/endpoints/message
 * POST /message: a validated body (./schema.ts), the `sendMessage` command → `{ messageId }` (./route.ts).
 */
import { routerEndpoint } from '../endpoint.js'
import { messagePaths } from './openapi.js'
import { messageRoutes } from './route.js'

export const messageEndpoint = routerEndpoint(messageRoutes, messagePaths)
