/**
 * `npm run demo` as a newcomer follows it: the tour's every command, run as printed, answers as the tour says (the
 * picture it sends is the one the demo serves, and reaches Bob's phone byte for byte); the tour says how long a QR
 * lives and where both processes log, and `--verbose` shows those logs in the terminal too.
 */
import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { freePort } from '../../support/processes.js'
import { parseProm, sumOf } from '../../support/prom-text.js'
import { repoRoot } from '../../support/readme.js'
import { endDemo, runDemo, type DemoRun } from '../../support/system/demo.js'

const run = promisify(execFile)

let demo: DemoRun | undefined
let dataDir: string | undefined

afterAll(async () => {
  await endDemo(demo)
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

const sha256 = (bytes: Buffer | ArrayBuffer) =>
  createHash('sha256')
    .update(Buffer.from(bytes as ArrayBuffer))
    .digest('hex')

describe('npm run demo', () => {
  it('starts the sandbox and the gateway, creates nothing, and its tour works when followed line by line', async () => {
    const [port, sandboxPort] = [await freePort(), await freePort()]
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'ops-demo-'))
    demo = runDemo({ port, sandboxPort, dataDir }, { via: 'npm', args: ['--verbose'] })
    const out = await demo.tour()

    const commands = out
      .split('\n')
      .map(l => l.trim())
      .filter(l => l.startsWith('curl ') || l.startsWith('npm run demo:scan'))
    const G = `http://127.0.0.1:${port}`
    expect(out).toContain(`${G}/#view=<token>`)
    expect(out).not.toContain('#id=')
    expect(out).toContain('An unscanned QR lives 3 minutes (SESSION_QR_LIFETIME_MS)')
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

    // Both logs are where the tour says, and --verbose shows them here too, each line marked with its process.
    const logs = { gateway: path.join(dataDir, 'gateway.log'), sandbox: path.join(dataDir, 'sandbox.log') }
    expect(out).toContain(`Their logs: ${logs.gateway} and ${logs.sandbox}`)
    expect(readFileSync(logs.gateway, 'utf8')).toContain('gateway listening')
    expect(readFileSync(logs.sandbox, 'utf8')).toContain('sandbox ready')
    expect(out).toMatch(/^\[gateway\] .*gateway listening/m)
    expect(out).toMatch(/^\[sandbox\] .*sandbox ready/m)

    // The picture the image line sends is served by the demo itself, on loopback.
    const pictureUrl = /"url":"(http:\/\/127\.0\.0\.1:\d+\/picture\.png)"/.exec(out)?.[1]
    const picture = await fetch(pictureUrl!)
    expect(picture.headers.get('content-type')).toBe('image/png')
    const pictureSha = sha256(await picture.arrayBuffer())

    // Nothing exists before the reader creates it.
    const before = parseProm(await follow(`curl -s ${G}/metrics`))
    expect(sumOf(before, 'gateway_sessions')).toBe(0)

    const [create, ...rest] = commands
    expect(create).toBe(`curl -s -X POST ${G}/session`)
    const created = JSON.parse(await follow(create!)) as { id: string; sessionId: string }
    const vars = { ID: created.id, SID: created.sessionId }

    const outputs: Array<{ command: string; output: string }> = []
    for (const command of rest) outputs.push({ command, output: await follow(command, vars) })
    const answerTo = (part: string) => outputs.find(o => o.command.includes(part))!.output

    expect(JSON.parse(answerTo('/session/view-link')).url).toMatch(new RegExp(`^${G}/#view=`))
    // (its QR comes a moment after the session is created: the tour says to poll)
    expect(JSON.parse(answerTo(`"${G}/session"`)).isConnected).toBe(false)
    expect(answerTo('npm run demo:scan')).toContain('connected: 15550000001:')
    for (const { command, output } of outputs) {
      if (command.startsWith('npm') || command.includes('/metrics')) continue
      const body = JSON.parse(output) as Record<string, unknown>
      expect(body.statusCode, `${command} → ${output}`).toBeUndefined()
    }
    const inbox = JSON.parse(answerTo('/inbox')) as {
      messages: Array<{ type: string; text?: string; caption?: string; media?: { sha256: string } }>
    }
    expect(inbox.messages.some(m => m.type === 'text' && m.text === 'hello Bob')).toBe(true)
    const image = inbox.messages.find(m => m.type === 'image')
    expect(image?.caption).toBe('a picture')
    expect(image?.media?.sha256).toBe(pictureSha)
    const metrics = parseProm(answerTo('/metrics'))
    expect(
      sumOf(metrics, 'gateway_http_request_duration_seconds_count', { route: '/message', status_code: '200' }),
    ).toBe(3)
    // The tour ends by deleting the session it created.
    expect(sumOf(metrics, 'gateway_sessions')).toBe(0)
  }, 300_000)
})
