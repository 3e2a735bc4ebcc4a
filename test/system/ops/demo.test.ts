import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { freePort } from '../../support/processes.js'
import { parseProm, sumOf } from '../../support/prom-text.js'
import { repoRoot } from '../../support/readme.js'
import { waitFor } from '../../support/wait-for.js'

const run = promisify(execFile)

let demo: ChildProcess | undefined
let dataDir: string | undefined

afterAll(async () => {
  if (demo && demo.exitCode === null) {
    // The demo, npm and the sandbox + gateway it started share one process group.
    process.kill(-demo.pid!, 'SIGTERM')
    const exited = once(demo, 'exit')
    const timer = setTimeout(() => {
      try {
        process.kill(-demo!.pid!, 'SIGKILL')
      } catch {
        /* gone */
      }
    }, 20_000)
    await exited
    clearTimeout(timer)
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true })
}, 30_000)

/** Runs one line of the tour in a shell, with the tour's two variables set. */
async function follow(line: string, vars: Record<string, string> = {}): Promise<string> {
  const { stdout } = await run('bash', ['-c', line], {
    cwd: repoRoot,
    env: { ...process.env, ...vars },
    timeout: 120_000,
  })
  return stdout
}

describe('npm run demo', () => {
  it('starts the sandbox and the gateway, creates nothing, and its tour works when followed line by line', async () => {
    const [port, sandboxPort] = [await freePort(), await freePort()]
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'ops-demo-'))
    demo = spawn('npm', ['run', 'demo'], {
      cwd: repoRoot,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, PORT: String(port), SANDBOX_PORT: String(sandboxPort), DATA_DIR: dataDir },
    })
    let out = ''
    demo.stdout!.on('data', d => {
      out += d
    })
    demo.stderr!.on('data', d => {
      out += d
    })
    await waitFor(
      'the tour',
      async () => {
        if (demo!.exitCode !== null) throw new Error(`demo exited (${demo!.exitCode}):\n${out}`)
        return out.includes('Ctrl+C stops') || undefined
      },
      120_000,
    )

    const commands = out
      .split('\n')
      .map(l => l.trim())
      .filter(l => l.startsWith('curl ') || l.startsWith('npm run demo:scan'))
    const G = `http://127.0.0.1:${port}`
    expect(out).toContain(`http://localhost:${port}/#view=<token>`)
    expect(out).not.toContain('#id=')
    for (const route of [
      '/session',
      '/session/view-link',
      '/message',
      '/status',
      '/typing',
      '/group',
      '/group/',
      '/group/member',
      '/channel',
      '/channel/message',
      '/session/reset',
      '/healthz',
      '/readyz',
      '/metrics',
    ]) {
      expect(
        commands.some(c => c.includes(`${G}${route}`)),
        route,
      ).toBe(true)
    }
    expect(commands.some(c => c.includes('-X DELETE'))).toBe(true)

    // Nothing exists before the reader creates it.
    const before = parseProm(await follow(`curl -s ${G}/metrics`))
    expect(sumOf(before, 'gateway_sessions')).toBe(0)

    const [create, ...rest] = commands
    expect(create).toBe(`curl -s -X POST ${G}/session`)
    const created = JSON.parse(await follow(create!)) as { id: string; sessionId: string }
    const vars = { ID: created.id, SID: created.sessionId }

    const outputs: Array<{ command: string; output: string }> = []
    for (const command of rest) outputs.push({ command, output: await follow(command, vars) })

    const scan = outputs.find(o => o.command.startsWith('npm run demo:scan'))!
    expect(scan.output).toContain('connected: 15550000001:')
    for (const { command, output } of outputs) {
      if (command.startsWith('npm') || command.includes('/metrics')) continue
      const body = JSON.parse(output) as Record<string, unknown>
      expect(body.statusCode, `${command} → ${output}`).toBeUndefined()
    }
    const inbox = outputs.find(o => o.command.includes('/inbox'))!
    expect(inbox.output).toContain('hello Bob')
    const metrics = parseProm(outputs.find(o => o.command.includes('/metrics'))!.output)
    expect(
      sumOf(metrics, 'gateway_http_request_duration_seconds_count', { route: '/message', status_code: '200' }),
    ).toBe(2)
    // The tour ends by deleting the session it created.
    expect(sumOf(metrics, 'gateway_sessions')).toBe(0)
  }, 300_000)
})
