/**
 * @module http/qr-page/csp
 * The Content-Security-Policy of the QR page: everything from the gateway itself, no inline code, images only from
 * the gateway, `data:` (the QR is a base64 PNG shown as a data URL) and the host of the account's profile picture.
 *
 * GET /session's `picture` is a URL the platform hands out, not one the gateway serves: the real platform's profile
 * pictures live on its `*.whatsapp.net` CDN; under the sandbox (SANDBOX_URL) they come from the sandbox's media host,
 * an HTTPS port of its own on the sandbox's address (the port is only known from the sandbox's /trust, so any port).
 */

/** Where profile pictures may be loaded from, given the gateway's SANDBOX_URL setting. */
export function pictureSource(sandboxUrl: string | undefined): string {
  if (sandboxUrl === undefined) return 'https://*.whatsapp.net'
  return `https://${new URL(sandboxUrl).hostname}:*`
}

export function qrPageCsp(sandboxUrl: string | undefined): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "connect-src 'self'",
    `img-src 'self' data: ${pictureSource(sandboxUrl)}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ')
}
