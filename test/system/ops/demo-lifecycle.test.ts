/**
 * The demo never describes a gateway that is not its own and never leaves anything running: a second demo on the
 * same ports refuses in one line (and the first keeps serving its own session); a demo stopped and started again
 * brings its paired session back connected (the sandbox keeps its phones in DATA_DIR); a demo stopped in the middle
 * of its start, or whose gateway refuses to start, ends everything it had started, without a stack trace; a demo
 * killed outright (kill -9) leaves nothing running either.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createGatewayClient, waitForSession } from '../../../src/client/index.js'
import { scanSession } from '../../../src/demo/scan.js'
import { freePort } from '../../support/processes.js'
import {
  alive,
  descendants,
  endDemo,
  portFree,
  runDemo,
  type DemoPlaces,
  type DemoRun,
} from '../../support/system/demo.js'
import { waitFor } from '../../support/wait-for.js'

const runs: DemoRun[] = []
const dirs: string[] = []

afterAll(async () => {
  for (const run of runs) await endDemo(run)
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
}, 60_000)

async function places(): Promise<DemoPlaces> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'demo-lifecycle-'))
  dirs.push(dataDir)
  return { port: await freePort(), sandboxPort: await freePort(), dataDir }
}

const demo = (where: DemoPlaces, options: Parameters<typeof runDemo>[1] = {}): DemoRun => {
  const run = runDemo(where, options)
  runs.push(run)
  return run
}

/** Stops the demo as Ctrl+C or `kill` would (a signal to the demo process only), and checks it left nothing. */
async function stopAndCheckNothingLeft(run: DemoRun, where: DemoPlaces): Promise<void> {
  const started = descendants(run.child.pid!)
  expect(started.length).toBeGreaterThan(0)
  run.child.kill('SIGTERM')
  expect(await run.exited()).toBe(0)
  expect(started.filter(alive)).toEqual([])
  expect(await portFree(where.port)).toBe(true)
  expect(await portFree(where.sandboxPort)).toBe(true)
}

/** Waits until the sandbox is up and the gateway is starting (spawned, the tour not printed yet). */
async function gatewayStarting(run: DemoRun): Promise<void> {
  await waitFor('the gateway starting', async () => {
    if (run.child.exitCode !== null) throw new Error(run.output())
    return run.output().includes('starting the gateway') && descendants(run.child.pid!).length >= 2 ? true : undefined
  })
  expect(run.output()).not.toContain('The gateway is up')
}

const G = (where: DemoPlaces) => `http://127.0.0.1:${where.port}`

describe('npm run demo, started again or twice', () => {
  it('a second demo on the same ports refuses in one line, and the first keeps serving its own session', async () => {
    const where = await places()
    const first = demo(where)
    await first.tour()
    const created = (await (await fetch(`${G(where)}/session`, { method: 'POST' })).json()) as {
      id: string
      sessionId: string
    }

    const second = demo({ ...where, dataDir: path.join(where.dataDir, 'second') }, { via: 'npm' })
    expect(await second.exited()).not.toBe(0)
    expect(second.stdout()).not.toContain('The gateway is up')
    const said = second.stderr().trim().split('\n')
    expect(said).toEqual([
      `demo: port ${where.port} on 127.0.0.1 (PORT) is taken: another program listens there (another demo?); ` +
        'stop it, or choose another: PORT=<port> npm run demo',
    ])

    expect(first.child.exitCode).toBeNull()
    const own = await fetch(`${G(where)}/session`, { headers: { id: created.id, 'session-id': created.sessionId } })
    expect(own.status).toBe(200)
    await stopAndCheckNothingLeft(first, where)
  }, 300_000)

  it('stopped and started again, it brings its paired session back connected', async () => {
    const where = await places()
    const first = demo(where)
    await first.tour()
    expect(first.output()).not.toContain('[gateway]') // the logs go to the terminal only with --verbose
    const created = (await (await fetch(`${G(where)}/session`, { method: 'POST' })).json()) as {
      id: string
      sessionId: string
    }
    const session = { id: created.id, sessionId: created.sessionId }
    await scanSession({ gatewayUrl: G(where), sandboxUrl: `http://127.0.0.1:${where.sandboxPort}`, ...session })
    await stopAndCheckNothingLeft(first, where)

    const again = demo(where)
    await again.tour()
    const gateway = createGatewayClient(G(where))
    const back = await waitForSession(gateway, session, s => s.isConnected, { timeoutMs: 60_000 })
    expect(back.qrcode).toBe('')
    const sent = await fetch(`${G(where)}/message`, {
      method: 'POST',
      headers: { id: session.id, 'session-id': session.sessionId, 'content-type': 'application/json' },
      body: JSON.stringify({ phone: '15550000002', type: 'text', text: 'back again' }),
    })
    expect(sent.status, await sent.clone().text()).toBe(200)
    await stopAndCheckNothingLeft(again, where)

    // The same DATA_DIR with a DATA_KEY it was not written with: the gateway refuses, the demo says so in one line
    // and stops the sandbox it had started.
    const refused = demo(where, { env: { DATA_KEY: 'ab'.repeat(32) } })
    await waitFor('the sandbox started', async () =>
      descendants(refused.child.pid!).length > 0 || refused.child.exitCode !== null ? true : undefined,
    )
    const startedThen = descendants(refused.child.pid!)
    expect(await refused.exited()).toBe(1)
    const said = refused.stderr().trim().split('\n')
    expect(said).toHaveLength(1)
    expect(said[0]).toMatch(/^demo: the gateway did not start: gateway cannot start: .*DATA_KEY/)
    expect(said[0]).toContain(`(its log: ${path.join(where.dataDir, 'gateway.log')})`)
    expect(startedThen.length).toBeGreaterThan(0)
    expect(startedThen.filter(alive)).toEqual([])
    expect(await portFree(where.sandboxPort)).toBe(true)
  }, 400_000)

  it('stopped in the middle of its start, it leaves nothing running', async () => {
    const where = await places()
    const run = demo(where)
    await gatewayStarting(run)
    const started = descendants(run.child.pid!)
    run.child.kill('SIGTERM')
    await run.exited()
    expect(started.filter(alive)).toEqual([])
    expect(await portFree(where.port)).toBe(true)
    expect(await portFree(where.sandboxPort)).toBe(true)
    expect(run.output()).not.toMatch(/\n\s+at /)
  }, 300_000)

  it.each(['in its start', 'after its tour'])(
    'killed outright (kill -9) %s, it leaves nothing running',
    async when => {
      const where = await places()
      const run = demo(where)
      await (when === 'in its start' ? gatewayStarting(run) : run.tour())
      const started = descendants(run.child.pid!)
      expect(started.length).toBeGreaterThanOrEqual(2)
      run.child.kill('SIGKILL')
      await run.exited()
      // nothing could run in the demo itself: its children see their IPC channel close and stop on their own
      await waitFor('the processes it started gone', async () => (started.some(alive) ? undefined : true), 60_000)
      expect(await portFree(where.port)).toBe(true)
      expect(await portFree(where.sandboxPort)).toBe(true)
    },
    300_000,
  )
})
