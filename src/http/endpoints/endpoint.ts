/**
 * @module http/endpoints/endpoint
 * What an endpoint module gives the app: how its routes are mounted, and how the OpenAPI document describes them.
 * `createApp` mounts every module of ./index.ts in its order, and the document is their `paths` put together, so
 * an endpoint is added or changed in its own folder only.
 */
import type { Express, Router } from 'express'
import type { ZodOpenApiPathsObject } from 'zod-openapi'
import type { EndpointDeps } from '../deps.js'

export interface Endpoint {
  /** Registers the endpoint's routes on the app; called once per app. */
  mount(app: Express, deps: EndpointDeps): void
  /** Its operations, by path then method, in zod-openapi's form. */
  paths: ZodOpenApiPathsObject
}

/** An endpoint whose routes sit on one router of their own. */
export const routerEndpoint = (routes: (deps: EndpointDeps) => Router, paths: ZodOpenApiPathsObject): Endpoint => ({
  mount: (app, deps) => {
    app.use(routes(deps))
  },
  paths,
})
