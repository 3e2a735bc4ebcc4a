/**
 * @module http/endpoints/health/route
 * `/healthz`: 200 `{"status":"ok"}` whenever the process answers. `/readyz`: 200 `{"status":"ready"}` once the
 * store is open, every shard thread is up and has restored its sessions; until then 503 `{"status":"starting"}`,
 * and 503 `{"status":"stopping"}` from the start of shutdown on (a load balancer stops sending new requests).
 */
import { Router } from 'express'
import type { AppDeps } from '../../deps.js'
import { HEALTHZ_PATH, READYZ_PATH } from '../../ops/paths.js'

export function healthRoutes({ system }: AppDeps): Router {
  const router = Router()
  router.get(HEALTHZ_PATH, (_req, res) => {
    res.json({ status: 'ok' })
  })
  router.get(READYZ_PATH, (_req, res) => {
    const readiness = system.ops?.readiness() ?? { ready: true }
    if (readiness.ready) res.json({ status: 'ready' })
    else res.status(503).json({ status: readiness.status })
  })
  return router
}
