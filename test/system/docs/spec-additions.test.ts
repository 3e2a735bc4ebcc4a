/**
 * Keeps the table "What the gateway adds to the spec" (docs/api.md) complete: every fixed message a client can get
 * (src/http/schemas/validation-lines.ts, `CLIENT_MESSAGES`) that docs/SPEC.md does not show, every status the
 * OpenAPI document lists beyond the spec's 200/400/404/500 (plus the 408 and 431 node's HTTP server answers), and
 * every endpoint the spec does not have, must be in that one table. A message, status or endpoint added without a row fails here.
 */
import { describe, expect, it } from 'vitest'
import { openApiDocument } from '../../../src/http/openapi/document.js'
import { CLIENT_MESSAGES } from '../../../src/http/schemas/validation-lines.js'
import { docSection, readRepoFile } from '../../support/readme.js'

const table = docSection('docs/api.md', 'What the gateway adds to the spec')
const spec = readRepoFile('docs/SPEC.md')
/** The spec writes a field path as `<field>`, the gateway as `<path>`. */
const inSpec = (message: string) => spec.includes(`\`${message.replaceAll('<path>', '<field>')}\``)
/** `type must be one of the following values: text, audio` → the table's `type must be one of the following values: …`. */
const asListed = (message: string) => message.replace(/(following values:).*/, '$1 …')

describe('docs/api.md: what the gateway adds to the spec', () => {
  it('lists every fixed message the spec does not show', () => {
    // The table shows a message with a variable part by an example of it, so those are left to the Errors table
    // (test/unit/protocol/error-table/errors-doc.test.ts); `<path>` is no value but the field.
    const messages = CLIENT_MESSAGES.filter(m => !/<(?!path>)\w+>/.test(m))
    const added = [...new Set(messages.filter(m => !inSpec(m)).map(asListed))]
    expect(added.length).toBeGreaterThan(20)
    expect(added.filter(m => !table.includes(`\`${m}\``))).toEqual([])
    // and the spec's own messages are not passed off as additions
    expect(table.includes('`session not found`')).toBe(false)
  })

  it("lists every status the gateway answers beyond the spec's, with its own row", () => {
    const documented = new Set<string>(['408', '431'])
    for (const item of Object.values(openApiDocument().paths ?? {})) {
      for (const op of Object.values(item as Record<string, { responses?: Record<string, unknown> }>)) {
        for (const status of Object.keys(op?.responses ?? {})) documented.add(status)
      }
    }
    const added = [...documented].filter(s => !['200', '400', '404', '500'].includes(s)).sort()
    expect(added).toEqual(['304', '401', '403', '408', '409', '410', '413', '415', '429', '431', '503'])
    expect(added.filter(s => !table.includes(`\n| Status | ${s} `))).toEqual([])
  })

  it('lists every endpoint the spec does not have', () => {
    const paths = Object.entries(openApiDocument().paths ?? {}).flatMap(([path, item]) =>
      Object.keys(item as object)
        .filter(m => ['get', 'post', 'put', 'delete'].includes(m))
        .map(m => `${m.toUpperCase()} ${path}`),
    )
    const notInSpec = paths.filter(route => !spec.includes(`### ${route} `))
    expect(notInSpec.sort()).toEqual([
      'DELETE /session',
      'DELETE /session/proxy',
      'GET /healthz',
      'GET /readyz',
      'GET /session/proxy',
      'GET /session/qr',
      'POST /session/pairing-code',
      'POST /session/reset',
      'POST /session/view-link',
      'PUT /session/proxy',
    ])
    const endpointRows = table
      .split('\n')
      .filter(l => l.startsWith('| Endpoint |'))
      .join('\n')
    // ...and the pages and the Prometheus text the ops part serves outside the document
    const pages = ['GET /metrics', 'GET /openapi.json', 'GET /docs', 'GET /']
    expect([...notInSpec, ...pages].filter(route => !endpointRows.includes(`\`${route}\``))).toEqual([])
  })
})
