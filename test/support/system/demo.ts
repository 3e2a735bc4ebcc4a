/**
 * `npm run demo` as a newcomer runs it, for the demo's system tests (test/system/ops/demo*.test.ts): started as a
 * child in its own process group (so a test can always clean up after it, whatever it left), its output kept, the
 * processes it started found through /proc, and its ports checked free.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { readdirSync, readFileSync } from 'node:fs'
import { listenError } from '../../../src/demo/ports.js'
import { repoRoot } from '../readme.js'
import { waitFor } from '../wait-for.js'

export interface DemoPlaces {
  port: number
  sandboxPort: number
  dataDir: string
}

export interface DemoRun {
  child: ChildProcess
  /** stdout and stderr as they came. */
  output(): string
  stdout(): string
  stderr(): string
  /** Resolves with the demo's output once it printed the tour; throws (with the output) if it exited first. */
  tour(): Promise<string>
  /** Resolves with the exit code once the demo ended. */
  exited(): Promise<number | null>
}

/**
 * Starts the demo on `places`. `via: 'npm'` runs `npm run demo` itself; `via: 'node'` runs its script directly (the
 * same code, minus npm in between), so that a signal a test sends reaches the demo process itself.
 */
export function runDemo(
  places: DemoPlaces,
  { via = 'node', args = [], env = {} }: { via?: 'npm' | 'node'; args?: string[]; env?: Record<string, string> } = {},
): DemoRun {
  const [command, argv] =
    via === 'npm'
      ? ['npm', ['run', 'demo', ...(args.length ? ['--', ...args] : [])]]
      : [process.execPath, ['--import', 'tsx', 'src/demo/main.ts', ...args]]
  const child = spawn(command, argv, {
    cwd: repoRoot,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: String(places.port),
      SANDBOX_PORT: String(places.sandboxPort),
      DATA_DIR: places.dataDir,
      ...env,
    },
  })
  let out = ''
  let stdout = ''
  let stderr = ''
  child.stdout!.on('data', d => {
    out += d
    stdout += d
  })
  child.stderr!.on('data', d => {
    out += d
    stderr += d
  })
  const exit = once(child, 'exit').then(([code]) => code as number | null)
  return {
    child,
    output: () => out,
    stdout: () => stdout,
    stderr: () => stderr,
    exited: () => exit,
    tour: () =>
      waitFor(
        'the tour',
        async () => {
          if (child.exitCode !== null) throw new Error(`demo exited (${child.exitCode}):\n${out}`)
          return out.includes('Ctrl+C stops') ? out : undefined
        },
        180_000,
      ),
  }
}

/** Every live process below `pid` (children, their children...), read from /proc. */
export function descendants(pid: number): number[] {
  const parents = new Map<number, number[]>()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      // pid (comm) state ppid ...: comm may hold spaces and parentheses, so read from the last ')'
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(entry)])
    } catch {
      /* ended meanwhile */
    }
  }
  const found: number[] = []
  const queue = [pid]
  while (queue.length > 0) {
    for (const child of parents.get(queue.shift()!) ?? []) {
      found.push(child)
      queue.push(child)
    }
  }
  return found
}

/** Whether process `pid` still exists (a zombie counts as ended). */
export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z'
  } catch {
    return false
  }
}

/** Whether nothing listens on `port` at 127.0.0.1. */
export const portFree = async (port: number): Promise<boolean> => (await listenError(port)) === undefined

/** Ends a demo the test started and whatever it left running: its whole process group, SIGKILL if need be. */
export async function endDemo(run: DemoRun | undefined): Promise<void> {
  if (!run) return
  const group = -run.child.pid!
  const signal = (s: NodeJS.Signals) => {
    try {
      process.kill(group, s)
    } catch {
      /* the group is gone */
    }
  }
  signal('SIGTERM')
  const timer = setTimeout(() => signal('SIGKILL'), 20_000)
  if (run.child.exitCode === null && run.child.signalCode === null) await run.exited()
  clearTimeout(timer)
  signal('SIGKILL') // anything of the group still there is a leftover the test has already reported
}
