/**
 * @module http/endpoints/pairing-code
 * POST /session/pairing-code: pairing by code, an addition to the spec (docs/api.md: "Pairing by code").
 */
import { routerEndpoint } from '../endpoint.js'
import { pairingCodePaths } from './openapi.js'
import { pairingCodeRoutes } from './route.js'

export const pairingCodeEndpoint = routerEndpoint(pairingCodeRoutes, pairingCodePaths)
