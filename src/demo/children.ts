/**
 * @module demo/children
 * The processes the demo started, so that it stops every one of them however it ends: Ctrl+C, a signal in the
 * middle of its start, or a start that failed half way (a sandbox left running would hold its port and answer the
 * next demo). Each child's output goes to its log file, and with `--verbose` to the terminal too, each line marked
 * with the child's name.
 */
import type { ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { createWriteStream, type WriteStream } from 'node:fs'
import type { ChildWatch } from './processes.js'

/** How long a child may take to stop on SIGTERM (the gateway drains its requests) before it is killed. */
const STOP_GRACE_MS = 20_000

const running = (child: ChildProcess): boolean => child.exitCode === null && child.signalCode === null

interface Started {
  name: string
  logFile: string
  child: ChildProcess
}

export class DemoChildren {
  private readonly children: Started[] = []
  private readonly logs: WriteStream[] = []

  constructor(private readonly verbose: boolean) {}

  /** The watch to start child `name` with: it is tracked from its spawn, and its output appended to `logFile`.
   * `tail()` is the end of what it wrote, to explain a failed start. */
  watch(name: string, logFile: string): ChildWatch & { tail(): string } {
    const log = createWriteStream(logFile, { flags: 'a' })
    this.logs.push(log)
    let tail = ''
    let partial = ''
    return {
      exitWithParent: true, // a demo killed outright (kill -9) still leaves nothing running
      onSpawn: child => {
        this.children.push({ name, logFile, child })
      },
      onOutput: chunk => {
        log.write(chunk)
        tail = (tail + chunk).slice(-16_384)
        if (!this.verbose) return
        const lines = (partial + chunk).split('\n')
        partial = lines.pop() ?? ''
        for (const line of lines) process.stdout.write(`[${name}] ${line}\n`)
      },
      tail: () => tail,
    }
  }

  /** Calls `onExit` when a child ends by itself (not when stopAll stops it). */
  onUnexpectedExit(onExit: (started: Started) => void): void {
    for (const started of this.children) started.child.once('exit', () => this.stopping || onExit(started))
  }

  private stopping = false

  /** Stops the children, the last started first (the gateway before the sandbox it talks to): SIGTERM, then
   * SIGKILL for one that has not ended after STOP_GRACE_MS. */
  async stopAll(): Promise<void> {
    this.stopping = true
    for (const { child } of [...this.children].reverse()) {
      if (!running(child)) continue
      const exited = once(child, 'exit')
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS)
      await exited
      clearTimeout(timer)
    }
    await Promise.all(this.logs.map(log => new Promise(resolve => log.end(resolve))))
  }
}
