/**
 * A bad setting stops the real gateway (src/main.ts as a child process) at start: exit 1 and one clear line on
 * stderr, nothing on stdout. The rules themselves are test/unit/gateway-settings.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { createServer } from 'node:net'
import { describe, expect, it } from 'vitest'
import { runToExit } from '../../support/fresh-process.js'
import { onLoopback } from '../../support/loopback-server.js'

/** Starts the gateway's entry point with `env`; a gateway that starts instead of refusing must not outlive the test. */
const runMain = (env: Record<string, string>) =>
  runToExit(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: { HOST: '127.0.0.1', PORT: '0', ...env },
    killAfterMs: 30_000,
  })

describe('settings', () => {
  it('a bad value stops the gateway with exit 1 and one clear line on stderr', async () => {
    const run = await runMain({ PORT: 'abc' })
    expect(run.code).toBe(1)
    expect(run.stderr).toBe('invalid setting PORT: expected an integer, got "abc"\n')
    expect(run.stdout).toBe('')
  }, 60_000)

  // 0.0.0.0 is refused as a sandbox address, yet reaches only this machine should the check ever break
  it('a non-loopback http SANDBOX_URL stops the gateway at start with that one line', async () => {
    const run = await runMain({ SANDBOX_URL: 'http://0.0.0.0:7800' })
    expect(run.code).toBe(1)
    expect(run.stderr).toBe(
      'invalid setting SANDBOX_URL: expected http on a loopback address (127.0.0.0/8, ::1, localhost) ' +
        'or an https URL, got "http://0.0.0.0:7800"\n',
    )
  }, 60_000)

  it('a PORT another process listens on stops the gateway with exit 1 and one line naming it', async () => {
    const holder = await onLoopback(createServer())
    const { port } = holder
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gw-port-'))
    try {
      const run = await runMain({ PORT: String(port), DATA_DIR: dataDir })
      expect(run.code).toBe(1)
      expect(run.stderr).toBe(
        `gateway cannot start: cannot listen on 127.0.0.1:${port} (EADDRINUSE): another process already listens there\n`,
      )
    } finally {
      await holder.close()
      rmSync(dataDir, { recursive: true, force: true })
    }
  }, 60_000)
})
