/**
 * @module http/qr-page/paths
 * Where the QR page and its two assets are served. The assets sit under their own prefix so they can never shadow
 * an API route.
 */
export const QR_PAGE_PATH = '/'
export const QR_PAGE_SCRIPT_PATH = '/qr-page/script.js'
export const QR_PAGE_STYLE_PATH = '/qr-page/style.css'
