/**
 * @module http/openapi/docs-page
 * The interactive reference at /docs: Swagger UI from the swagger-ui-dist package, served by the gateway itself
 * (no CDN, works offline). The page has no inline script, so its Content-Security-Policy can be `script-src 'self'`;
 * Swagger UI sets inline styles, hence `style-src 'unsafe-inline'`. The built-in online validator badge is off.
 */
import { createRequire } from 'node:module'
import path from 'node:path'

/** Where the docs page and its assets are served. */
export const DOCS_PATH = '/docs'
export const DOCS_ASSETS_PATH = '/docs/assets'
export const DOCS_INIT_PATH = '/docs/init.js'
export const DOCUMENT_PATH = '/openapi.json'

/** The only files of swagger-ui-dist the page needs (the package also holds a demo page we do not serve). */
export const DOCS_ASSETS: readonly string[] = ['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png']

/** Every path the reference itself serves: not part of the API, so not in the document. */
export const REFERENCE_PATHS: readonly string[] = [
  DOCUMENT_PATH,
  DOCS_PATH,
  DOCS_INIT_PATH,
  ...DOCS_ASSETS.map(file => `${DOCS_ASSETS_PATH}/${file}`),
]

export const swaggerUiDir = (): string =>
  path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'))

export const DOCS_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ')

export const DOCS_HTML = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Messaging gateway API</title>
  <link rel="icon" type="image/png" href="${DOCS_ASSETS_PATH}/favicon-32x32.png">
  <link rel="stylesheet" href="${DOCS_ASSETS_PATH}/swagger-ui.css">
</head>
<body>
  <div id="docs"></div>
  <script src="${DOCS_ASSETS_PATH}/swagger-ui-bundle.js"></script>
  <script src="${DOCS_INIT_PATH}"></script>
</body>
</html>
`

/** Starts Swagger UI on the gateway's own document; "Try it out" calls this same gateway. */
export const DOCS_INIT_JS = `window.ui = SwaggerUIBundle({
  url: ${JSON.stringify(DOCUMENT_PATH)},
  dom_id: '#docs',
  deepLinking: true,
  validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis],
})
`
