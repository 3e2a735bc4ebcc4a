/**
 * Cluster mode is one part the core never reaches into: nothing in storage, the actors, the HTTP layer, the platform
 * link or the protocol imports anything under src/cluster/ (only main.ts, and the settings put together for it in
 * gateway-settings.ts, wire cluster mode in), so the single-node path runs no code of cluster mode; and the thread
 * contract (src/protocol/) imports nothing from the actors it connects. Cluster mode itself reaches the actors and
 * the HTTP layer only through the seams they offer (a mode's, a shard store engine's, a front's). Type-only imports
 * count too. A failure names each import that crosses.
 */
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { importGraph } from '../../support/import-graph.js'

const root = path.resolve(import.meta.dirname, '../../..')
const src = (folder: string) => path.join(root, 'src', folder) + path.sep

/** The imports of `graph` from a file under one of `from` to a file under `to`, as "file → file". */
function crossings(graph: Map<string, string[]>, from: string[], to: string): string[] {
  return [...graph].flatMap(([file, targets]) =>
    from.some(folder => file.startsWith(folder))
      ? targets
          .filter(target => target.startsWith(to))
          .map(target => `${path.relative(root, file)} → ${path.relative(root, target)}`)
      : [],
  )
}

const CORE = ['storage', 'actors', 'http', 'platform', 'protocol'].map(src)

describe('the boundary of cluster mode', () => {
  const graph = importGraph([path.join(root, 'src')])

  it('is crossed by no import from storage, the actors, HTTP, the platform or the protocol', () => {
    expect(CORE.filter(folder => [...graph.keys()].some(file => file.startsWith(folder)))).toEqual(CORE)
    expect(crossings(graph, CORE, src('cluster'))).toEqual([])
  })

  it('is crossed only by main.ts and the settings put together for it', () => {
    const outside = [...graph.keys()].filter(file => !file.startsWith(src('cluster')))
    const importers = new Set(
      outside
        .filter(file => graph.get(file)!.some(target => target.startsWith(src('cluster'))))
        .map(file => path.relative(root, file)),
    )
    expect([...importers].sort()).toEqual(['src/gateway-settings.ts', 'src/main.ts'])
  })

  it('reaches the actors and HTTP only through the seams they offer a mode and a front', () => {
    const seams = [
      'actors/main/session-mode.ts', // a mode's interface, and what a mode may use of the session system
      'actors/main/session-system.ts', // the session system as the HTTP layer sees it
      'actors/worker/shard-store.ts', // a shard's store engine
      'actors/settings.ts',
      'http/front-seam.ts', // what a front gives the app, and reads and sets on a request
      'http/api-paths.ts', // the paths and header names the app and a front both read
      'http/settings.ts',
    ].map(file => path.join(root, 'src', file))
    const inside = [src('actors'), src('http')]
    const reached = [...graph]
      .filter(([file]) => file.startsWith(src('cluster')))
      .flatMap(([file, targets]) =>
        targets
          .filter(target => inside.some(folder => target.startsWith(folder)) && !seams.includes(target))
          .map(target => `${path.relative(root, file)} → ${path.relative(root, target)}`),
      )
    expect(reached).toEqual([])
  })

  it('leaves the thread contract free of the actors it connects', () => {
    expect(crossings(graph, [src('protocol')], src('actors'))).toEqual([])
  })

  it('finds an import that crosses', () => {
    const file = (name: string) => path.join(root, 'src', name)
    const made = new Map([
      [file('actors/main/sharded-system.ts'), [file('cluster/cluster-node.ts'), file('storage/types.ts')]],
      [file('cluster/cluster-node.ts'), [file('actors/main/sharded-system.ts')]],
    ])
    expect(crossings(made, CORE, src('cluster'))).toEqual([
      'src/actors/main/sharded-system.ts → src/cluster/cluster-node.ts',
    ])
  })
})
