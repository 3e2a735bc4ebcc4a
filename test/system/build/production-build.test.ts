/**
 * `npm start` runs the compiled gateway, not the TypeScript sources: worker threads then load dist/actors/worker/worker.js
 * and the compiled Baileys link without tsx. This builds the project the way `npm run build` does (into a scratch
 * folder inside the project, so node_modules resolve), starts it with plain `node`, and pairs and sends through it.
 * The build holds the gateway only: no sandbox or demo code, and nothing that needs a dev dependency.
 */
import { execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { builtinModules } from 'node:module'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort } from '../../support/processes.js'
import { openApiDocument } from '../../../src/http/openapi/document.js'
import { Gateway, inbox, pair, reply, sandboxCall, startWorld, withSession } from '../../support/system/harness.js'
import { waitFor } from '../../support/wait-for.js'

const root = path.resolve(import.meta.dirname, '../../..')

describe('the compiled gateway', () => {
  let world: Awaited<ReturnType<typeof startWorld>>
  let outDir: string
  let gw: Gateway

  beforeAll(async () => {
    outDir = mkdtempSync(path.join(root, '.tmp-build-'))
    execFileSync(
      process.execPath,
      [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--outDir', outDir],
      { cwd: root },
    )
    world = await startWorld()
    await sandboxCall(world.sandbox.url, 'POST', '/world', {
      accounts: [
        { phone: '15550000001', name: 'Alice' },
        { phone: '15550000002', name: 'Bob' },
      ],
    })
    const port = await freePort()
    let out = ''
    const child = spawn(process.execPath, [path.join(outDir, 'main.js')], {
      cwd: root,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        SHARDS: '2',
        SANDBOX_URL: world.sandbox.url,
        DATA_DIR: world.dataDir,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    child.stdout.on('data', d => {
      out = (out + d).slice(-20_000)
    })
    child.stderr.on('data', d => {
      out = (out + d).slice(-20_000)
    })
    const url = `http://127.0.0.1:${port}`
    await waitFor(
      `the compiled gateway on ${url}`,
      async () => {
        if (child.exitCode !== null) throw new Error(`exited ${child.exitCode}:\n${out}`)
        return (await fetch(`${url}/x`).catch(() => undefined))?.status === 404 || undefined
      },
      60_000,
    )
    gw = new Gateway({
      url,
      child,
      output: () => out,
      async stop() {
        if (child.exitCode === null) {
          child.kill('SIGTERM')
          await new Promise(r => child.once('exit', r))
        }
        return child.exitCode
      },
    })
  }, 180_000)

  afterAll(async () => {
    await gw?.proc.stop()
    await world?.cleanup()
    if (outDir) rmSync(outDir, { recursive: true, force: true })
  })

  it('holds no sandbox or demo code, and imports only production dependencies', () => {
    const files = readdirSync(outDir, { recursive: true, encoding: 'utf8' }).map(f => f.split(path.sep).join('/'))
    expect(files).toContain('main.js')
    expect(files).toContain('platform/baileys/sandbox-trust.js') // the client side of SANDBOX_URL is the gateway's own
    expect(files.filter(f => /^(sandbox|demo)(\/|$)/.test(f))).toEqual([])

    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as Record<
      string,
      Record<string, string>
    >
    const production = new Set([...Object.keys(pkg.dependencies!), ...Object.keys(pkg.optionalDependencies ?? {})])
    const imported = new Set<string>()
    for (const file of files.filter(f => f.endsWith('.js'))) {
      const code = readFileSync(path.join(outDir, file), 'utf8')
      for (const m of code.matchAll(/\bfrom\s*'([^']+)'|\bimport\s*\(\s*'([^']+)'\s*\)|^import\s*'([^']+)'/gm)) {
        const specifier = (m[1] ?? m[2] ?? m[3])!
        expect(specifier, `${file} imports ${specifier}`).not.toMatch(/(^|\/)(sandbox|demo)\//)
        if (specifier.startsWith('.') || specifier.startsWith('node:') || builtinModules.includes(specifier)) continue
        imported.add(specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!)
      }
    }
    expect(imported).toContain('@whiskeysockets/baileys') // the scan sees the imports
    expect([...imported].filter(name => !production.has(name))).toEqual([])
    // what only the sandbox, the demo and the tests use stays out of a production install
    for (const dev of ['selfsigned', 'jsqr', 'pngjs']) expect(production.has(dev), dev).toBe(false)
  })

  it('serves its OpenAPI document and the /docs page with assets from its own node_modules', async () => {
    const served = await (await fetch(`${gw.url}/openapi.json`)).json()
    expect(served).toEqual(JSON.parse(JSON.stringify(openApiDocument())))
    const page = await (await fetch(`${gw.url}/docs`)).text()
    const assets = [...page.matchAll(/(?:src|href)="(\/docs\/[^"]+)"/g)].map(m => m[1]!)
    expect(assets.length).toBeGreaterThanOrEqual(3)
    for (const asset of assets) expect((await fetch(`${gw.url}${asset}`)).status, asset).toBe(200)
  }, 60_000)

  it('pairs, sends, and stops cleanly without tsx anywhere', async () => {
    expect(gw.proc.child.spawnargs.join(' ')).not.toContain('tsx')
    const session = await gw.createSession()
    const connected = await pair(gw, world.sandbox.url, session, '15550000001')
    expect(connected.generatedId).toMatch(/^15550000001:\d+@s\.whatsapp\.net$/)
    const sent = await reply(
      gw.api.POST(
        '/message',
        withSession(session, { body: { phone: '15550000002', type: 'text', text: 'from dist' } }),
      ),
    )
    expect(sent.status).toBe(200)
    // every answer went through the client's validator against the document
    expect(gw.responses.map(r => `${r.method} ${r.path} ${r.status}`)).toEqual(
      expect.arrayContaining(['POST /session 200', 'GET /session 200', 'POST /message 200']),
    )
    await waitFor(
      'the text from the compiled gateway',
      async () => (await inbox(world.sandbox.url, '15550000002')).find(m => m.id === sent.body.messageId),
      60_000,
    )
    expect(await gw.proc.stop()).toBe(0)
  }, 120_000)
})
