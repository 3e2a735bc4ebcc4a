/**
 * /openapi.json and /docs served by createApp: the document as built, and an HTML page whose scripts, styles and
 * icon all come from the gateway itself (works offline, no CDN), under a Content-Security-Policy that allows them.
 */
import request from 'supertest'
import { describe, expect, it } from 'vitest'
import { openApiDocument } from '../../../../src/http/openapi/document.js'
import { makeApp } from '../../../support/fakes/fake-system.js'

const { app } = makeApp()

/** Every `src` and `href` in the page. */
const references = (html: string) => [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map(m => m[1]!)

describe('the API reference', () => {
  it('serves the document at /openapi.json without headers', async () => {
    const res = await request(app).get('/openapi.json')
    expect(res.status).toBe(200)
    expect(res.type).toBe('application/json')
    expect(res.body).toEqual(JSON.parse(JSON.stringify(openApiDocument())))
  })

  it('serves /docs as HTML that loads every asset from the gateway itself', async () => {
    const res = await request(app).get('/docs')
    expect(res.status).toBe(200)
    expect(res.type).toBe('text/html')
    const refs = references(res.text)
    expect(refs).toEqual(
      expect.arrayContaining(['/docs/assets/swagger-ui.css', '/docs/assets/swagger-ui-bundle.js', '/docs/init.js']),
    )
    for (const ref of refs) {
      expect(ref, 'same-origin path').toMatch(/^\/[^/]/)
      const asset = await request(app).get(ref)
      expect(asset.status, ref).toBe(200)
      expect(asset.body.length || asset.text.length, ref).toBeGreaterThan(0)
    }
    expect(res.text).not.toMatch(/<script>/) // no inline script: the CSP allows only the gateway's own files
  })

  it('starts Swagger UI on /openapi.json with the online validator off', async () => {
    const init = await request(app).get('/docs/init.js')
    expect(init.type).toBe('text/javascript')
    expect(init.text).toContain('url: "/openapi.json"')
    expect(init.text).toContain('validatorUrl: null')
    expect((await request(app).get('/docs/assets/swagger-ui-bundle.js')).type).toBe('text/javascript')
    expect((await request(app).get('/docs/assets/swagger-ui.css')).type).toBe('text/css')
  })

  it("sends a Content-Security-Policy that allows the gateway's own scripts and styles only", async () => {
    const csp = (await request(app).get('/docs')).headers['content-security-policy'] as string
    const directives = Object.fromEntries(csp.split('; ').map(d => [d.split(' ')[0], d.split(' ').slice(1)]))
    expect(directives['script-src']).toEqual(["'self'"])
    expect(directives['style-src']).toEqual(["'self'", "'unsafe-inline'"])
    expect(directives['connect-src']).toEqual(["'self'"])
  })

  it("serves only the assets the page needs, not the package's demo page", async () => {
    expect((await request(app).get('/docs/assets/index.html')).status).toBe(404)
    expect((await request(app).get('/docs/assets/swagger-initializer.js')).status).toBe(404)
  })
})
