/**
 * Lists the `METHOD /path` pairs an express 5 app serves, by walking its router stack (routers are mounted
 * without a prefix here, so each route's own path is the full path). Path parameters read `{name}`, as in OpenAPI.
 */
import type express from 'express'

interface Layer {
  route?: { path: string; methods: Record<string, boolean> }
  handle?: { stack?: Layer[] }
}

export function expressRoutes(app: express.Express): string[] {
  const found: string[] = []
  const walk = (stack: Layer[]) => {
    for (const layer of stack) {
      if (layer.route) {
        const path = layer.route.path.replace(/:(\w+)/g, '{$1}')
        for (const method of Object.keys(layer.route.methods)) found.push(`${method.toUpperCase()} ${path}`)
      } else if (layer.handle?.stack) {
        walk(layer.handle.stack)
      }
    }
  }
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack)
  return found
}
