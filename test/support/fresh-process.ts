/**
 * Child processes a test runs from the project root to their end: `runToExit` for a command whose exit code and
 * output are what the test checks (the gateway refusing a setting, the migration command, a store opened in a
 * clean process); `inFreshProcess` for an ES module body run with tsx in a fresh Node process, for behaviour that
 * depends on what a thread loads first (a module load hook acts only on modules imported after it), which this test
 * runner's process has long since loaded.
 */
import { execFileSync, spawn } from 'node:child_process'
import { once } from 'node:events'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')

/** Runs `body` with tsx in a fresh Node process; returns what it printed last, parsed as JSON. */
export function inFreshProcess(body: string): unknown {
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', body], {
    cwd: root,
    encoding: 'utf8',
  })
  return JSON.parse(out.trim().split('\n').at(-1)!)
}

export interface Exited {
  /** The exit code; null when a signal ended it. */
  code: number | null
  stdout: string
  stderr: string
}

export interface RunOptions {
  /** On top of this process's environment. */
  env?: Record<string, string>
  /** A child still running after this long is killed (SIGKILL): one that should have stopped must not outlive the test. */
  killAfterMs?: number
}

/** Runs `command args` from the project root until it exits; its exit code and everything it printed. */
export async function runToExit(command: string, args: string[], options: RunOptions = {}): Promise<Exited> {
  const child = spawn(command, args, {
    cwd: root,
    env: { ...process.env, ...options.env },
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
  const killer =
    options.killAfterMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), options.killAfterMs)
  // 'close', not 'exit': the output is all read by then
  const [code] = (await once(child, 'close')) as [number | null]
  clearTimeout(killer)
  return { code, stdout, stderr }
}
