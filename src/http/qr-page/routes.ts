/**
 * @module http/qr-page/routes
 * Serves the QR page (`GET /`) and its script and stylesheet. The page is public (it holds no secret: it is opened
 * with a view link's token in the URL fragment, endpoints/view-link/route.ts), so these routes need no headers;
 * every answer carries the page's strict CSP, `no-referrer` (an old link with a secret in its query must not leak it anywhere)
 * and `no-cache` (a gateway upgrade is seen at the next load).
 *
 * @example
 * app.use(qrPageRoutes())  // before the 404 handler
 * // then open the `url` POST /session/view-link returned: http://HOST:PORT/#view=<token>
 */
import { Router, type Response } from 'express'
import { QR_PAGE_CSP } from './csp.js'
import { QR_PAGE_HTML } from './page-html.js'
import { QR_PAGE_SCRIPT } from './page-script.js'
import { QR_PAGE_STYLE } from './page-style.js'
import { QR_PAGE_PATH, QR_PAGE_SCRIPT_PATH, QR_PAGE_STYLE_PATH } from './paths.js'

export function qrPageRoutes(): Router {
  const router = Router()
  const csp = QR_PAGE_CSP
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
