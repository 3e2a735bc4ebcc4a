/**
 * The README stays a front door: short enough to read in a few minutes (the rest lives in docs/), and its table of
 * the endpoints beyond the spec names every one the gateway serves that docs/SPEC.md does not have, so a newcomer
 * who reads only the README still learns that each exists.
 */
import { describe, expect, it } from 'vitest'
import { openApiDocument } from '../../../src/http/openapi/document.js'
import { readmeSection, readRepoFile } from '../../support/readme.js'

describe('README.md, the front door', () => {
  it('is at most 250 lines', () => {
    expect(readRepoFile('README.md').split('\n').length).toBeLessThanOrEqual(250)
  })

  it('names every endpoint beyond the spec in its one table', () => {
    const spec = readRepoFile('docs/SPEC.md')
    const beyond = Object.entries(openApiDocument().paths ?? {})
      .flatMap(([path, item]) =>
        Object.keys(item as object)
          .filter(m => ['get', 'post', 'put', 'delete'].includes(m))
          .map(m => `${m.toUpperCase()} ${path}`),
      )
      .filter(route => !spec.includes(`### ${route} `))
    expect(beyond.length).toBeGreaterThan(8)
    // and what the ops part serves outside the document: the metrics, the document itself, its page, the QR page
    const served = [...beyond, 'GET /metrics', 'GET /openapi.json', 'GET /docs', 'GET /']
    const table = readmeSection('Beyond the spec')
    expect(served.filter(route => !table.includes(`\`${route}\``))).toEqual([])
  })
})
