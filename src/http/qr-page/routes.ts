/**
 * @module http/qr-page/routes
 * Serves the QR page (`GET /`) and its script and stylesheet. The page is public (it holds no secret: the operator
 * brings the id and session-id in the URL fragment or types them), so these routes need no headers; every answer
 * carries the page's strict CSP, `no-referrer` (a link with the secret in its query must not leak it to the picture
 * host) and `no-cache` (a gateway upgrade is seen at the next load).
 *
 * @example
 * app.use(qrPageRoutes(deps))  // before the 404 handler
 * // then open http://HOST:PORT/#id=<id>&session-id=<sessionId>
 */
import { Router, type Response } from 'express'
import type { AppDeps } from '../routes/deps.js'
import { qrPageCsp } from './csp.js'
import { QR_PAGE_HTML } from './page-html.js'
import { QR_PAGE_SCRIPT } from './page-script.js'
import { QR_PAGE_STYLE } from './page-style.js'
import { QR_PAGE_PATH, QR_PAGE_SCRIPT_PATH, QR_PAGE_STYLE_PATH } from './paths.js'

export function qrPageRoutes({ config }: Pick<AppDeps, 'config'>): Router {
  const router = Router()
  const csp = qrPageCsp(config.SANDBOX_URL)
  const send = (res: Response, type: string, body: string) => {
    res.setHeader('Content-Security-Policy', csp)
    res.setHeader('Referrer-Policy', 'no-referrer')
    res.setHeader('Cache-Control', 'no-cache')
    res.type(type).send(body)
  }

  router.get(QR_PAGE_PATH, (_req, res) => send(res, 'html', QR_PAGE_HTML))
  router.get(QR_PAGE_SCRIPT_PATH, (_req, res) => send(res, 'text/javascript', QR_PAGE_SCRIPT))
  router.get(QR_PAGE_STYLE_PATH, (_req, res) => send(res, 'css', QR_PAGE_STYLE))
  return router
}
