/**
 * The OpenAPI document: valid OpenAPI 3.1, in step with the routes express really serves, and complete about
 * the error statuses and headers of each operation.
 */
import { readFileSync } from 'node:fs'
import { validate, compileErrors } from '@readme/openapi-parser'
import { describe, expect, it } from 'vitest'
import { openApiDocument } from '../../../../src/http/openapi/document.js'
import { REFERENCE_PATHS } from '../../../../src/http/openapi/docs-page.js'
import { makeApp } from '../../../support/fakes/fake-system.js'
import { expressRoutes } from '../../../support/express-routes.js'

const document = openApiDocument()
const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const

/** `METHOD /path` for every operation in the document. */
function documentedRoutes(): string[] {
  return Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    METHODS.filter(m => (item as Record<string, unknown>)[m] !== undefined).map(m => `${m.toUpperCase()} ${path}`),
  )
}

const operation = (route: string) => {
  const [method, path] = route.split(' ') as [string, string]
  return (document.paths as Record<string, Record<string, any>>)[path]![method.toLowerCase()]
}

/** Pages the app serves that are not part of the JSON API: the reference itself, the browser QR page at `/` and
 * the Prometheus text at `/metrics` (both from other parts of the gateway, left out of the document on purpose). */
const NOT_API = new Set(
  [...REFERENCE_PATHS, '/', '/qr-page/script.js', '/qr-page/style.css', '/metrics'].map(p => `GET ${p}`),
)
/** Probes documented here but registered by the ops part of the gateway, which may be absent from createApp. */
const PROBES = new Set(['GET /healthz', 'GET /readyz'])

describe('the OpenAPI document', () => {
  it("names the gateway's release as its version: the package's", () => {
    const pkg = JSON.parse(readFileSync(new URL('../../../../package.json', import.meta.url), 'utf8')) as {
      version: string
    }
    expect(document.info.version).toBe(pkg.version)
  })

  it('is valid OpenAPI 3.1', async () => {
    expect(document.openapi).toBe('3.1.0')
    const result = await validate(structuredClone(document) as never)
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true)
  })

  it('documents every route express serves, and serves every documented route', () => {
    const served = expressRoutes(makeApp().app).filter(r => !NOT_API.has(r))
    const documented = documentedRoutes()
    expect(served.length).toBeGreaterThanOrEqual(12)
    expect(documented.filter(r => !served.includes(r) && !PROBES.has(r))).toEqual([])
    expect(served.filter(r => !documented.includes(r))).toEqual([])
  })

  it('holds the endpoints of the spec and docs/api.md, with their operation ids', () => {
    const ids = Object.fromEntries(documentedRoutes().map(r => [r, operation(r).operationId]))
    expect(ids).toEqual({
      'POST /session': 'createSession',
      'GET /session': 'getSession',
      'DELETE /session': 'deleteSession',
      'POST /session/reset': 'resetSession',
      'POST /session/view-link': 'createViewLink',
      'GET /session/proxy': 'getSessionProxy',
      'PUT /session/proxy': 'setSessionProxy',
      'DELETE /session/proxy': 'deleteSessionProxy',
      'GET /session/qr': 'viewQr',
      'POST /session/pairing-code': 'requestPairingCode',
      'POST /message': 'sendMessage',
      'POST /status': 'postStatus',
      'POST /typing': 'sendTyping',
      'GET /group': 'listGroups',
      'GET /group/member': 'listGroupMembers',
      'GET /group/{groupId}': 'getGroup',
      'GET /channel': 'listChannels',
      'GET /channel/message': 'listChannelMessages',
      'GET /healthz': 'health',
      'GET /readyz': 'ready',
    })
  })

  it('asks for the id and session-id headers everywhere but POST /session, GET /session/qr and the probes', () => {
    for (const route of documentedRoutes()) {
      const headers = (operation(route).parameters ?? [])
        .filter((p: any) => p.in === 'header')
        .map((p: any) => `${p.name}:${String(p.required)}`)
      const open = route === 'POST /session' || PROBES.has(route)
      // The view-only QR endpoint takes its token, never the session's credentials.
      const credentials = route === 'GET /session/qr' ? ['view-token:true'] : open ? [] : ['id:true', 'session-id:true']
      // The two that wait for a change take the ETag the client holds.
      const conditional = route === 'GET /session' || route === 'GET /session/qr' ? ['if-none-match:undefined'] : []
      expect(headers, route).toEqual([...credentials, ...conditional])
    }
  })

  it('lists the error statuses each endpoint can answer with, all with the { statusCode, message } body', () => {
    const statuses = Object.fromEntries(
      documentedRoutes()
        .filter(r => !PROBES.has(r))
        .map(r => [r, Object.keys(operation(r).responses).join(' ')]),
    )
    const withBody = '200 400 404 413 415 429 500 503'
    const authenticated = '200 400 404 429 500 503'
    expect(statuses).toEqual({
      'POST /session': '200 400 401 413 415 429 500 503', // 400, 413, 415: only with its optional body
      // 304: a wait that ended unchanged; 429: the wait limits; 503 in cluster mode: the session is moving
      'GET /session': '200 304 400 404 429 500 503',
      'DELETE /session': authenticated,
      'POST /session/reset': authenticated,
      'POST /session/view-link': '200 400 404 409 500 503',
      'GET /session/proxy': authenticated,
      'PUT /session/proxy': withBody,
      'DELETE /session/proxy': authenticated,
      'GET /session/qr': '200 304 400 404 410 429 500',
      'POST /session/pairing-code': '200 400 404 409 413 415 429 500 503',
      // 403: a new chat while the platform restricts the account with no end known
      'POST /message': '200 400 403 404 413 415 429 500 503',
      'POST /status': withBody,
      'POST /typing': '200 400 403 404 413 415 429 500 503',
      'GET /group': authenticated,
      'GET /group/member': authenticated,
      'GET /group/{groupId}': authenticated,
      'GET /channel': authenticated,
      'GET /channel/message': authenticated,
    })
    for (const route of documentedRoutes().filter(r => !PROBES.has(r))) {
      for (const [status, response] of Object.entries<any>(operation(route).responses)) {
        if (status === '200') continue
        if (status === '304') {
          expect(response.content, route).toBeUndefined()
          expect(Object.keys(response.headers), route).toEqual(['ETag'])
          expect(Object.keys(operation(route).responses['200'].headers), route).toEqual(['ETag'])
          expect(
            operation(route).parameters.find((p: any) => p.name === 'wait'),
            route,
          ).toMatchObject({
            in: 'query',
            schema: { type: 'integer', minimum: 0 },
          })
          continue
        }
        expect(response.content['application/json'].schema, `${route} ${status}`).toEqual({
          $ref: '#/components/schemas/Error',
        })
        if (status === '429' || status === '503')
          expect(Object.keys(response.headers), `${route} ${status}`).toEqual(['Retry-After'])
      }
    }
    expect(document.components?.schemas?.Error).toMatchObject({
      type: 'object',
      required: ['statusCode', 'message'],
      additionalProperties: false,
    })
  })

  it('describes POST /message as one variant per type, built from the validating schemas', () => {
    const body = document.components?.schemas?.SendMessage as any
    const specTypes = ['text', 'image', 'video', 'audio', 'document', 'location', 'contact']
    expect(Object.keys(body.discriminator.mapping)).toEqual(specTypes)
    const video = document.components?.schemas?.VideoMessage as any
    expect(video.required).toEqual(['type', 'video'])
    expect(Object.keys(video.properties)).toEqual(['phone', 'group', 'newsletter', 'type', 'video', 'text'])
    // From src/http/schemas/media.ts: required fields, the duration rule, the optional thumbnail.
    expect(video.properties.video.required).toEqual(['url', 'mimetype', 'duration'])
    expect(video.properties.video.properties.duration).toMatchObject({ type: 'number', exclusiveMinimum: 0 })
    const status = document.components?.schemas?.PostStatus as any
    expect(Object.keys(status.discriminator.mapping)).toEqual(['text', 'image', 'video'])
  })
})
