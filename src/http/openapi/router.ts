/**
 * @module http/openapi/router
 * Serves the OpenAPI document at /openapi.json and its interactive reference at /docs (see ./docs-page). No
 * headers needed; mounted by createApp before the API routes.
 */
import path from 'node:path'
import { Router, type Response } from 'express'
import {
  DOCS_ASSETS,
  DOCS_ASSETS_PATH,
  DOCS_CSP,
  DOCS_HTML,
  DOCS_INIT_JS,
  DOCS_INIT_PATH,
  DOCS_PATH,
  DOCUMENT_PATH,
  swaggerUiDir,
} from './docs-page.js'
import { openApiDocument } from './document.js'

const page = (res: Response, type: string, body: string) => {
  res.setHeader('Content-Security-Policy', DOCS_CSP)
  res.type(type).send(body)
}

export function openApiRoutes(): Router {
  const router = Router()
  const assetsDir = swaggerUiDir()

  router.get(DOCUMENT_PATH, (_req, res) => {
    res.json(openApiDocument())
  })
  router.get(DOCS_PATH, (_req, res) => page(res, 'html', DOCS_HTML))
  router.get(DOCS_INIT_PATH, (_req, res) => page(res, 'js', DOCS_INIT_JS))
  for (const file of DOCS_ASSETS) {
    router.get(`${DOCS_ASSETS_PATH}/${file}`, (_req, res, next) => {
      res.sendFile(path.join(assetsDir, file), { maxAge: '1h' }, next)
    })
  }
  return router
}
