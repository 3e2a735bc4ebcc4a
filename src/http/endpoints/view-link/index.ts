/**
 * @module http/endpoints/view-link
 * POST /session/view-link and GET /session/qr: the view-only QR link, an addition to the spec (docs/api.md: "QR page").
 */
import { routerEndpoint } from '../endpoint.js'
import { viewLinkPaths } from './openapi.js'
import { viewLinkRoutes } from './route.js'

export const viewLinkEndpoint = routerEndpoint(viewLinkRoutes, viewLinkPaths)
