/**
 * On a Node below package.json's engines the gateway refuses to start, in one line naming the Node it found and how
 * to run the supported one (src/node-version.ts); on a Node that fits, nothing. test/system/build/old-node.test.ts
 * runs the compiled gateway on a real older Node.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { enginesNode, unsupportedNodeLine } from '../../src/node-version.js'

describe('unsupportedNodeLine', () => {
  it('refuses a Node below the engines range in one line: the Node found, the range, how to run the right one', () => {
    expect(unsupportedNodeLine('20.20.2', '>=24')).toBe(
      'gateway cannot start: it runs on Node >=24 (package.json engines) and this is Node 20.20.2; ' +
        'run it with Node 24: `npm start`, or `node_modules/.bin/node dist/main.js` (the Node 24 that npm install ' +
        'brings on Linux x64; elsewhere, install Node 24)',
    )
  })

  it('says nothing on the Node the range names, or a newer one', () => {
    expect(unsupportedNodeLine('24.0.0', '>=24')).toBeUndefined()
    expect(unsupportedNodeLine('24.11.1', '>=24')).toBeUndefined()
    expect(unsupportedNodeLine('25.1.0', '>=24')).toBeUndefined()
  })

  it('compares minor and patch when the range names them', () => {
    expect(unsupportedNodeLine('24.1.9', '>=24.2')).toContain('Node 24.1.9')
    expect(unsupportedNodeLine('24.2.0', '>=24.2')).toBeUndefined()
    expect(unsupportedNodeLine('24.2.0', '>= v24.2.1')).toContain('Node 24.2.0')
  })

  it('leaves a range it does not read, or no range, unjudged', () => {
    expect(unsupportedNodeLine('20.20.2', undefined)).toBeUndefined()
    expect(unsupportedNodeLine('20.20.2', '^24 || ^26')).toBeUndefined()
  })
})

describe('enginesNode', () => {
  it("reads the gateway's own package.json: the range the warning is judged against", () => {
    expect(enginesNode()).toBe('>=24')
  })

  it('is undefined for a package.json without engines, or one that cannot be read', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'node-version-'))
    try {
      const file = path.join(dir, 'package.json')
      writeFileSync(file, JSON.stringify({ name: 'x' }))
      expect(enginesNode(pathToFileURL(file))).toBeUndefined()
      writeFileSync(file, '{ not json')
      expect(enginesNode(pathToFileURL(file))).toBeUndefined()
      expect(enginesNode(pathToFileURL(path.join(dir, 'missing.json')))).toBeUndefined()
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
