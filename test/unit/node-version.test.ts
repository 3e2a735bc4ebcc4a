/**
 * The start names what it runs on: on a Node below package.json's engines, one warn line saying which version and
 * why (src/node-version.ts); on a Node that fits, nothing.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { enginesNode, nodeVersionWarning } from '../../src/node-version.js'

describe('nodeVersionWarning', () => {
  it('warns on a Node below the engines range, naming the version, the range and why', () => {
    const line = nodeVersionWarning('20.20.2', '>=24')
    expect(line).toContain('Node 20.20.2')
    expect(line).toContain('>=24')
    expect(line).toContain('package.json engines')
    expect(line).toContain('run it on Node 24')
  })

  it('says nothing on the Node the range names, or a newer one', () => {
    expect(nodeVersionWarning('24.0.0', '>=24')).toBeUndefined()
    expect(nodeVersionWarning('24.11.1', '>=24')).toBeUndefined()
    expect(nodeVersionWarning('25.1.0', '>=24')).toBeUndefined()
  })

  it('compares minor and patch when the range names them', () => {
    expect(nodeVersionWarning('24.1.9', '>=24.2')).toContain('Node 24.1.9')
    expect(nodeVersionWarning('24.2.0', '>=24.2')).toBeUndefined()
    expect(nodeVersionWarning('24.2.0', '>= v24.2.1')).toContain('Node 24.2.0')
  })

  it('leaves a range it does not read, or no range, unjudged', () => {
    expect(nodeVersionWarning('20.20.2', undefined)).toBeUndefined()
    expect(nodeVersionWarning('20.20.2', '^24 || ^26')).toBeUndefined()
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
