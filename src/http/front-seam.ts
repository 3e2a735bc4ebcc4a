/**
 * @module http/front-seam
 * What a front before the app may use of it (cluster mode's front authenticates a request for another node's
 * session and forwards it, and answers the forwarded ones): what it gives the app (`ClusterHttp`, with the shared
 * limits' interfaces), and what it reads and sets on a request for the app's routes (the client's key and origin as
 * the first node saw them, a body it has already read, the bound on waits per session). Paths and header names
 * both read are in api-paths.ts.
 */
export type { ClusterHttp } from './deps.js'
export type { CreationRate } from './limits/creation-gate.js'
export type { PairingCodeBudget, PairingCodeQuotas } from './limits/pairing-code-budget.js'
export { requestClientKey, setForwardedClient } from './client-key.js'
export { setPreloadedBody } from './json-body.js'
export { requestOrigin, setForwardedOrigin } from './request-origin.js'
export { tooManyWaitsForSession } from './session-wait/wait-room.js'
