/**
 * @module client/types
 * The client's own types, apart from index.ts so that its parts (wait-for-session.ts) name them without importing
 * the module that re-exports them (an import cycle otherwise).
 */
import type { Client } from 'openapi-fetch'
import type { components, paths } from './schema.js'

export type GatewayClient = Client<paths>

/** What POST /session returns; the two values every other endpoint needs as headers. */
export type SessionCredentials = components['schemas']['CreatedSession']
