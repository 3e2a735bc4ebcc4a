/**
 * @module http/endpoints
 * Every endpoint of the API, one folder each: `route.ts` (registration and handler), `schema.ts` (validation of
 * what the client sends, where it sends anything), `openapi.ts` (the operations and their response schemas).
 * The order is the order of mounting and of the OpenAPI document's paths: the polled GET /session first (every
 * router a request passes costs it a path match; BENCHMARKS.md), the probes last.
 */
import { channelEndpoint } from './channel/index.js'
import type { Endpoint } from './endpoint.js'
import { groupEndpoint } from './group/index.js'
import { healthEndpoint } from './health/index.js'
import { messageEndpoint } from './message/index.js'
import { pairingCodeEndpoint } from './pairing-code/index.js'
import { sessionEndpoint } from './session/index.js'
import { sessionProxyEndpoint } from './session-proxy/index.js'
import { statusEndpoint } from './status/index.js'
import { typingEndpoint } from './typing/index.js'
import { viewLinkEndpoint } from './view-link/index.js'

export const ENDPOINTS: readonly Endpoint[] = [
  sessionEndpoint,
  viewLinkEndpoint,
  pairingCodeEndpoint,
  sessionProxyEndpoint,
  messageEndpoint,
  statusEndpoint,
  typingEndpoint,
  groupEndpoint,
  channelEndpoint,
  healthEndpoint,
]
