/**
 * @module http/endpoints/channel
 * GET /channel and GET /channel/message?channelId=&before=: the account's channels and their history.
 */
import { routerEndpoint } from '../endpoint.js'
import { channelPaths } from './openapi.js'
import { channelRoutes } from './route.js'

export const channelEndpoint = routerEndpoint(channelRoutes, channelPaths)
