/**
 * `npm run demo:scan` takes a session's id and secret on the command line, and a secret may start with `-` (it is
 * base64url). The tour prints the ids after `--` so such a secret is not read as an option; without the `--`, the
 * user gets a one-line reason and the usage, not a stack trace.
 */
import { spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { repoRoot } from '../../support/readme.js'

/** A gateway and sandbox address nothing listens on: the scan gets as far as its first request. */
const NOWHERE = 'http://127.0.0.1:9'

const scanCli = (...args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', 'src/demo/scan-cli.ts', ...args], {
    cwd: repoRoot,
    encoding: 'utf8',
    timeout: 60_000,
  })

describe('npm run demo:scan', () => {
  it('takes ids that start with "-" after "--" and goes on to scan', () => {
    const run = scanCli('--gateway', NOWHERE, '--sandbox', NOWHERE, '--', '-Kid', '-Ksecret')
    expect(run.stderr).toContain('scan failed: fetch failed')
    expect(run.stderr).not.toContain('Unknown option')
    expect(run.status).toBe(1)
  })

  it('answers such ids without "--" with the reason and the usage, no stack trace', () => {
    const run = scanCli('-Kid', '-Ksecret')
    expect(run.status).toBe(2)
    expect(run.stderr).toContain("Unknown option '-K'")
    expect(run.stderr).toContain(
      'usage: npm run demo:scan -- [--phone N] [--gateway URL] [--sandbox URL] -- <id> <session-id>',
    )
    expect(run.stderr).not.toMatch(/\n\s+at /)
  })
})
