/**
 * A bad setting stops the real gateway (src/main.ts as a child process) at start: exit 1 and one clear line on
 * stderr, nothing on stdout. The rules themselves are test/unit/settings/load.test.ts.
 */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { repoRoot } from '../../support/readme.js'

/** Starts the gateway's entry point with `env` and collects what it prints and how it exits. */
async function runMain(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'src/main.ts')], {
    cwd: repoRoot,
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', d => {
    stdout += d
  })
  child.stderr.on('data', d => {
    stderr += d
  })
  // A gateway that starts instead of refusing must not outlive the test.
  const guard = setTimeout(() => child.kill('SIGKILL'), 30_000)
  const [code] = await once(child, 'exit')
  clearTimeout(guard)
  return { code: code as number | null, stdout, stderr }
}

describe('settings', () => {
  it('a bad value stops the gateway with exit 1 and one clear line on stderr', async () => {
    const run = await runMain({ PORT: 'abc' })
    expect(run.code).toBe(1)
    expect(run.stderr).toBe('invalid setting PORT: expected an integer, got "abc"\n')
    expect(run.stdout).toBe('')
  }, 60_000)

  it('a non-loopback http SANDBOX_URL stops the gateway at start with that one line', async () => {
    const run = await runMain({ SANDBOX_URL: 'http://192.168.1.20:7800' })
    expect(run.code).toBe(1)
    expect(run.stderr).toBe(
      'invalid setting SANDBOX_URL: expected http on a loopback address (127.0.0.0/8, ::1, localhost) ' +
        'or an https URL, got "http://192.168.1.20:7800"\n',
    )
  }, 60_000)
})
