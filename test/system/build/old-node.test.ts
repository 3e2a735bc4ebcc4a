/**
 * The compiled gateway on a Node older than package.json's engines refuses to start: exit 1 and one line on stderr
 * that names the Node it found and how to run the supported one, before it listens or opens anything (on Node 20 it
 * used to start, answer /readyz and POST /session, then fail every session). Run for real on the machine's own older
 * Node (the `node` on PATH other than the one npm install brings); without one, skipped with a warning.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, realpathSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { enginesNode, SUPPORTED_NODE_HINT } from '../../../src/node-version.js'
import { freePort } from '../../support/processes.js'
import { portFree } from '../../support/system/demo.js'

const root = path.resolve(import.meta.dirname, '../../..')
const minimumMajor = Number(/^>=\s*(\d+)/.exec(enginesNode() ?? '')?.[1])

/** A `node` on PATH whose major is below the engines' (the machine's own, not the one under node_modules). */
function olderNode(): { file: string; version: string } | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const file = path.join(dir, 'node')
    if (!dir || !existsSync(file) || realpathSync(file).includes(`${path.sep}node_modules${path.sep}`)) continue
    const version = spawnSync(file, ['--version'], { encoding: 'utf8' }).stdout.trim().replace(/^v/, '')
    if (Number(version.split('.')[0]) < minimumMajor) return { file, version }
  }
  return undefined
}

const old = olderNode()
if (!old) console.warn(`SKIPPED: no Node older than ${enginesNode()} on PATH to run the compiled gateway on`)

describe.skipIf(!old)('the compiled gateway on an older Node', () => {
  let outDir: string
  let dataDir: string

  beforeAll(() => {
    outDir = mkdtempSync(path.join(root, '.tmp-build-'))
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'old-node-'))
    execFileSync(
      process.execPath,
      [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--outDir', outDir],
      { cwd: root },
    )
  }, 300_000)

  afterAll(() => {
    if (outDir) rmSync(outDir, { recursive: true, force: true })
    if (dataDir) rmSync(dataDir, { recursive: true, force: true })
  })

  it('exits 1 with one line naming the Node it found and how to run the supported one', async () => {
    const port = await freePort()
    const run = spawnSync(old!.file, [path.join(outDir, 'main.js')], {
      cwd: root,
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info' },
    })
    expect(run.status, run.stderr).toBe(1)
    expect(run.stderr).toBe(
      `gateway cannot start: it runs on Node ${enginesNode()} (package.json engines) and this is Node ${old!.version}; ` +
        `${SUPPORTED_NODE_HINT}\n`,
    )
    expect(run.stdout).toBe('') // not one log line: nothing started
    expect(readdirSync(dataDir)).toEqual([])
    expect(await portFree(port)).toBe(true)
  }, 120_000)
})
