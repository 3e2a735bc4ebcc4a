/**
 * @module http/ops/page-paths
 * What the gateway serves that is not its API: the QR page with its script and stylesheet, and the reference
 * (/docs, its assets, /openapi.json). Loading a page fetches several of them at once; counted as API requests they
 * would swell the request counts and latencies an operator watches, so they are neither timed nor logged above
 * debug, like the probes.
 */
import { DOCS_ASSETS_PATH, REFERENCE_PATHS } from '../openapi/docs-page.js'
import { QR_PAGE_PATH, QR_PAGE_SCRIPT_PATH, QR_PAGE_STYLE_PATH } from '../qr-page/paths.js'
import { OPS_PATHS } from './paths.js'

const PAGE_PATHS: ReadonlySet<string> = new Set([
  QR_PAGE_PATH,
  QR_PAGE_SCRIPT_PATH,
  QR_PAGE_STYLE_PATH,
  ...REFERENCE_PATHS,
])

/** Whether `path` (no query) is a page or one of its assets; anything under /docs/assets counts, even a file the
 * reference lacks (a 404 a page asked for, not an API request). */
export const isPagePath = (path: string): boolean => PAGE_PATHS.has(path) || path.startsWith(`${DOCS_ASSETS_PATH}/`)

/** Whether a request to `path` is an API request: neither a probe, a scrape, a page nor a page's asset. */
export const isApiPath = (path: string): boolean => !OPS_PATHS.has(path) && !isPagePath(path)
