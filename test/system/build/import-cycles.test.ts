/**
 * No import cycle anywhere in the project, type-only imports included: a cycle makes load order matter
 * and lets a bottom layer reach up (protocol → actors → storage → metrics → protocol was one). A failure names the
 * files of each cycle and the imports that close it. And no arrow up from the bottom floor: src/settings/, which
 * every part's slice of the settings is made of, imports nothing outside itself.
 */
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { importCycles, importGraph, importsLeaving } from '../../support/import-graph.js'

const root = path.resolve(import.meta.dirname, '../../..')

describe('the import graph', () => {
  it('reads the imports it is meant to (a check that found no edge would find no cycle)', () => {
    const graph = importGraph([path.join(root, 'src')])
    const of = (file: string) => (graph.get(path.join(root, 'src', file)) ?? []).map(f => path.relative(root, f))
    // value imports and type-only ones
    expect(of('http/session-route.ts')).toEqual(
      expect.arrayContaining(['src/http/json-body.ts', 'src/http/deps.ts', 'src/http/session-auth.ts']),
    )
    expect(of('media/address-guard.ts')).toContain('src/media/media-resolver.ts')
    expect(of('http/app.ts')).toContain('src/http/deps.ts')
    expect([...graph.values()].flat().length).toBeGreaterThan(900)
  })

  it('has no cycle in src/, bench/, scripts/ or test/', () => {
    const graph = importGraph(['src', 'bench', 'scripts', 'test'].map(dir => path.join(root, dir)))
    const cycles = importCycles(graph).map(files =>
      files.flatMap(file =>
        (graph.get(file) ?? [])
          .filter(target => files.includes(target))
          .map(target => `${path.relative(root, file)} → ${path.relative(root, target)}`),
      ),
    )
    expect(cycles).toEqual([])
  })

  it('has src/settings/ import nothing outside itself (the parts import it; their slices are put together above)', () => {
    expect(importsLeaving(importGraph([path.join(root, 'src')]), path.join(root, 'src/settings'), root)).toEqual([])
  })

  it('finds an import leaving a folder when there is one', () => {
    const graph = new Map([
      ['/p/settings/fields.ts', ['/p/settings/errors.ts']],
      ['/p/settings/load.ts', ['/p/settings/fields.ts', '/p/http/settings.ts']],
      ['/p/http/settings.ts', ['/p/settings/fields.ts']],
    ])
    expect(importsLeaving(graph, '/p/settings', '/p')).toEqual(['settings/load.ts → http/settings.ts'])
  })

  it('finds a cycle when there is one', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a', 'd']],
      ['d', []],
      ['e', ['e']],
    ])
    expect(importCycles(graph)).toEqual([['a', 'b', 'c'], ['e']])
  })
})
