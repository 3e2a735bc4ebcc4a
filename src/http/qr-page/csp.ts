/**
 * @module http/qr-page/csp
 * The Content-Security-Policy of the QR page: everything from the gateway itself, no inline code, images only from
 * the gateway and `data:` (the QR is a base64 PNG shown as a data URL). The page shows nothing of the account (a view
 * link shows the QR only), so no picture host is allowed either.
 */
export const QR_PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ')
