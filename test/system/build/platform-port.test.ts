/**
 * The actors reach the platform only through its port (src/platform/link.ts and the platform's settings and client
 * version): nothing under src/actors imports the Baileys adapter (src/platform/baileys/), which a shard loads by path,
 * so another adapter, or the tests' fake, replaces it whole.
 */
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { importGraph } from '../../support/import-graph.js'

const root = path.resolve(import.meta.dirname, '../../..')

describe('the platform port', () => {
  it('is all the actors import of the platform: nothing under platform/baileys/', () => {
    const graph = importGraph([path.join(root, 'src')])
    const actors = [...graph].filter(([file]) => file.startsWith(path.join(root, 'src/actors/')))
    const toAdapter = actors.flatMap(([file, targets]) =>
      targets
        .filter(target => target.startsWith(path.join(root, 'src/platform/baileys/')))
        .map(target => `${path.relative(root, file)} → ${path.relative(root, target)}`),
    )
    expect(actors.length).toBeGreaterThan(20)
    expect(toAdapter).toEqual([])
  })
})
