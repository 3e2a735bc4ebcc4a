/**
 * `npm run demo:scan` takes a session's id and secret on the command line, and a secret may start with `-` (it is
 * base64url). The tour prints the ids after `--` so such a secret is not read as an option; without the `--`, the
 * user gets a one-line reason and the usage, not a stack trace. A gateway or a sandbox it cannot reach is named by
 * its URL.
 */
import { spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { freePort } from '../../support/processes.js'
import { repoRoot } from '../../support/readme.js'
import { gatewayWorld } from '../../support/system/paired-gateway.js'

/** A gateway and sandbox address nothing listens on: the scan gets as far as its first request. */
const NOWHERE = `http://127.0.0.1:${await freePort()}`

const scanCli = (...args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', 'src/demo/scan-cli.ts', ...args], {
    cwd: repoRoot,
    encoding: 'utf8',
    timeout: 60_000,
  })

describe('npm run demo:scan', () => {
  it('takes ids that start with "-" after "--" and goes on to scan', () => {
    const run = scanCli('--gateway', NOWHERE, '--sandbox', NOWHERE, '--', '-Kid', '-Ksecret')
    expect(run.stderr).toBe(`scan failed: cannot reach the gateway at ${NOWHERE} (ECONNREFUSED)\n`)
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

describe('npm run demo:scan, with a sandbox it cannot reach', () => {
  const world = gatewayWorld()

  it('names the sandbox URL it could not reach', async () => {
    const session = (await (await fetch(`${world.gw.url}/session`, { method: 'POST' })).json()) as {
      id: string
      sessionId: string
    }
    const run = scanCli('--gateway', world.gw.url, '--sandbox', NOWHERE, '--', session.id, session.sessionId)
    expect(run.stderr).toBe(`scan failed: cannot reach the sandbox at ${NOWHERE} (ECONNREFUSED)\n`)
    expect(run.status).toBe(1)
  }, 90_000)
})
