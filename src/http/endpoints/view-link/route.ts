/**
 * @module http/endpoints/view-link/route
 * The view-only QR link, an addition to the spec (docs/api.md: "QR page"):
 *
 * - POST /session/view-link, headers `id` + `session-id` like every authenticated endpoint: a link to the QR page carrying
 *   a token good only for viewing this session's QR until its QR window closes (actors/main/view-tokens.ts). Operators hand
 *   this to whoever holds the phone instead of the secret.
 * - GET /session/qr, header `view-token`: the QR that token shows. It takes no `id` or `session-id` and answers
 *   nothing but the QR, a pending pairing code and the link's expiry; a token is no session credential anywhere else
 *   (404 there). Like GET /session it carries an ETag and waits for a change with `If-None-Match` and `?wait=`.
 *   Once the session is paired it answers 410, or with `?linkedStatus=200` (the QR page's way: a browser logs every
 *   4xx answer as a console error, and being linked is no error to the page) `200 { linked: true }`.
 *
 * @example
 * POST /session/view-link  (id, session-id) → { url: 'https://gw.example/#view=<token>', expiresAt }
 * GET /session/qr          (view-token)     → { qrcode: '<base64 PNG>', expiresAt, pairingCode: null }
 */
import { Router, type ErrorRequestHandler, type Request, type RequestHandler } from 'express'
import { GatewayError } from '../../../protocol/errors.js'
import { sessionRoute } from '../../session-route.js'
import { clientOrigin } from '../../request-origin.js'
import { QR_PAGE_PATH } from '../../qr-page/paths.js'
import { VIEW_QR_PATH, VIEW_TOKEN_HEADER } from '../../api-paths.js'
import type { AppDeps, EndpointDeps } from '../../deps.js'
import { etagOf } from '../../session-wait/etag.js'
import { answerConditional, type ConditionalGet } from '../../session-wait/long-poll.js'

const VIEW_LINK_PATH = '/session/view-link'
/** The URL fragment key the QR page reads the token from (a fragment never reaches a server or a referrer). */
const VIEW_FRAGMENT_KEY = 'view'

export interface ViewLinkBody {
  url: string
  expiresAt: string
}

/** The query parameter that asks for a paired session's answer as 200 `{ linked: true }` instead of 410. */
export const LINKED_STATUS_QUERY = 'linkedStatus'

/** GET /session/qr with `?linkedStatus=200` once the phone paired the session. */
export interface QrLinkedBody {
  linked: true
}

/** The 410 of a paired session, as 200 `{ linked: true }` when the request asked for that. */
const linkedAsOk: ErrorRequestHandler = (err, req, res, next) => {
  const asked = req.url.includes('?') && req.query[LINKED_STATUS_QUERY] === '200'
  if (!asked || !(err instanceof GatewayError) || err.code !== 'VIEW_LINK_USED') return next(err)
  res.setHeader('Cache-Control', 'no-store')
  res.json({ linked: true } satisfies QrLinkedBody)
}

export interface QrViewBody {
  qrcode: string
  expiresAt: string
  /** A pending pairing code (POST /session/pairing-code) and until when it works; null when there is none. */
  pairingCode: { code: string; expiresAt: string } | null
}

/**
 * Where the caller reached the gateway: PUBLIC_URL when set, else the origin its request names (its scheme and a
 * valid Host; in cluster mode the one it reached the first node at, never the owner's internal address). A Host
 * that names no origin is a 400: a link to it would lead nowhere.
 */
function publicBase(settings: AppDeps['settings'], req: Request): string {
  if (settings.PUBLIC_URL !== undefined) return settings.PUBLIC_URL.replace(/\/+$/, '')
  const origin = clientOrigin(req)
  if (origin === undefined) throw new GatewayError('INVALID_HOST')
  return origin
}

export function viewLinkRoutes(deps: EndpointDeps): Router {
  const { system, settings } = deps
  const router = Router()

  router.post(
    VIEW_LINK_PATH,
    sessionRoute(deps, {}, ({ session, req, res }) => {
      const { token, expiresAt } = system.createViewLink(session.id)
      const fragment = new URLSearchParams({ [VIEW_FRAGMENT_KEY]: token })
      res.setHeader('Cache-Control', 'no-store')
      return {
        url: `${publicBase(settings, req)}${QR_PAGE_PATH}#${fragment}`,
        expiresAt: new Date(expiresAt).toISOString(),
      } satisfies ViewLinkBody
    }),
  )

  // the QR page waits on it with If-None-Match and ?wait= (session-wait/long-poll.ts), so it shows a new QR at once
  const viewQr: ConditionalGet = {
    budget: 'view',
    cacheControl: 'no-store',
    current: req => {
      const token = req.headers[VIEW_TOKEN_HEADER]
      if (typeof token !== 'string' || token === '') throw new GatewayError('INVALID_HEADER')
      const { id, qrcode, expiresAt, pairingCode } = system.viewQr(token)
      const body: QrViewBody = {
        qrcode,
        expiresAt: new Date(expiresAt).toISOString(),
        pairingCode: pairingCode && {
          code: pairingCode.code,
          expiresAt: new Date(pairingCode.expiresAt).toISOString(),
        },
      }
      const text = JSON.stringify(body)
      return { session: id, etag: etagOf(text), text }
    },
  }
  const answer: RequestHandler = (req, res, next) => answerConditional(deps.waits, req, res, next, viewQr)
  router.get(VIEW_QR_PATH, answer, linkedAsOk)

  return router
}
