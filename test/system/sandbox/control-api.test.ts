import { spawn } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createSandbox } from '../../../src/sandbox/index.js'
import type { World } from '../../../src/sandbox/types.js'
import { reuseAfterIdle } from '../../support/keep-alive.js'
import { runToExit } from '../../support/fresh-process.js'
import { readRepoFile } from '../../support/readme.js'
import { getJson, postJson } from '../../support/system/baileys-client.js'
import { sandboxFixture } from '../../support/system/sandbox-fixture.js'
import { waitFor } from '../../support/wait-for.js'

/** The rows of src/sandbox/README.md's Control API table: method and path, as other tools read them. */
function documentedRoutes(): { method: string; path: string }[] {
  const readme = readRepoFile('src/sandbox/README.md')
  const section = readme.slice(readme.indexOf('\n## Control API\n'), readme.indexOf('\n### Inbox records\n'))
  return [...section.matchAll(/^\| (GET|POST|DELETE) +\| `([^`]+)`/gm)].map(m => ({ method: m[1]!, path: m[2]! }))
}

describe('sandbox control API', () => {
  const world = sandboxFixture() // the demo world

  it('keeps an idle kept-alive connection open past Node’s 5 s (a client pool reusing it gets no hang-up)', async () => {
    const [first, second] = await reuseAfterIdle(world.sandbox.port, '/trust', 6_000)
    expect(first).toMatch(/^HTTP\/1\.1 200/)
    expect(second).toMatch(/^HTTP\/1\.1 200/)
  }, 20_000)

  it('starts with the demo world and merges posted worlds, adding mentioned phones as accounts', async () => {
    const before = await getJson<World>(`${world.sandbox.url}/world`)
    expect(before.accounts.length).toBeGreaterThan(0)
    const res = await postJson(`${world.sandbox.url}/world`, {
      accounts: [{ phone: '+1 555 000 0001', name: 'Alice Renamed' }],
      groups: [{ id: '120363000000000077@g.us', name: 'New', participants: [{ phone: '15550000077' }] }],
    })
    expect(res.status).toBe(200)
    const after = await getJson<World>(`${world.sandbox.url}/world`)
    expect(after.accounts.find(a => a.phone === '15550000001')?.name).toBe('Alice Renamed')
    expect(after.accounts.some(a => a.phone === '15550000077')).toBe(true)
    expect(after.groups.map(g => g.id)).toContain('120363000000000077@g.us')
  })

  it('rejects a malformed world with 400', async () => {
    const res = await postJson(`${world.sandbox.url}/world`, { groups: [{ id: 'not-a-group', participants: [] }] })
    expect(res.status).toBe(400)
    expect(res.body.error).toMatch(/g\.us/)
  })

  it('answers empty inbox and presence for a quiet account and 404 for unknown routes and channels', async () => {
    expect(await getJson(`${world.sandbox.url}/accounts/15550000002/inbox`)).toEqual({ messages: [] })
    expect(await getJson(`${world.sandbox.url}/accounts/15550000002/presence`)).toEqual({ events: [] })
    expect((await fetch(`${world.sandbox.url}/nope`)).status).toBe(404)
    expect((await fetch(`${world.sandbox.url}/channels/1@newsletter/messages`)).status).toBe(404)
  })

  it('sets and clears faults', async () => {
    const set = await postJson(`${world.sandbox.url}/faults`, { rejectRecipient: '15550000002', delayMs: 5 })
    expect(set.body.faults).toEqual({ rejectRecipient: '15550000002', delayMs: 5 })
    const cleared = await (await fetch(`${world.sandbox.url}/faults`, { method: 'DELETE' })).json()
    expect(cleared).toEqual({ faults: {} })
  })

  it('answers every route its README documents, and documents every fixed path the code answers', async () => {
    const routes = documentedRoutes()
    expect(routes.length).toBeGreaterThan(10)
    for (const { method, path } of routes) {
      // The demo world's first account and channel; an empty body (POSTs answer 400 for it, not "no route").
      const url = path.replace('{phone}', '15550000001').replace('{id}', '120363000000000009@newsletter')
      const res = await fetch(`${world.sandbox.url}${url}`, {
        method,
        ...(method === 'POST' ? { headers: { 'content-type': 'application/json' }, body: '{}' } : {}),
      })
      const body = (await res.json()) as { error?: string }
      expect(body.error ?? '', `${method} ${path}`).not.toMatch(/^no route/)
    }
    // The other way: a fixed path in the code (`path === '/…'`) that the table lacks is an undocumented route.
    const inCode = [...readRepoFile('src/sandbox/control-api.ts').matchAll(/path === '(\/[a-z/-]+)'/g)].map(m => m[1])
    expect(inCode).toContain('/devices')
    expect(inCode).toContain('/link-code')
    for (const path of inCode) expect(routes.map(r => r.path)).toContain(path)
  })

  it('publishes its web client version in /trust; POST /client-version moves it, and takes only a.b.c', async () => {
    const versioned = await createSandbox({ port: 0, minClientVersion: [2, 3000, 5] })
    try {
      expect((await getJson<{ clientVersion: string }>(`${versioned.url}/trust`)).clientVersion).toBe('2.3000.5')
      expect(await postJson(`${versioned.url}/client-version`, { min: '2.3000.6' })).toEqual({
        status: 200,
        body: { min: '2.3000.6' },
      })
      expect((await getJson<{ clientVersion: string }>(`${versioned.url}/trust`)).clientVersion).toBe('2.3000.6')
      for (const min of ['2.3000', 'latest', 7])
        expect(await postJson(`${versioned.url}/client-version`, { min })).toEqual({
          status: 400,
          body: { error: 'body needs { min: "a.b.c" }' },
        })
      expect((await getJson<{ clientVersion: string }>(`${versioned.url}/trust`)).clientVersion).toBe('2.3000.6')
    } finally {
      await versioned.close()
    }
  })

  it('the CLI refuses a --min-client-version that is not a.b.c, saying so', async () => {
    const run = await runToExit(process.execPath, [
      '--import',
      'tsx',
      'src/sandbox/main.ts',
      '--port',
      '0',
      '--min-client-version',
      '2.3000',
    ])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain('--min-client-version must be a.b.c (three integers), not "2.3000"')
  })

  it('the CLI serves a world file on the port it is given', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sandbox-cli-'))
    const worldFile = join(dir, 'world.json')
    await writeFile(worldFile, JSON.stringify({ accounts: [{ phone: '15559990000', name: 'Solo' }] }))
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'src/sandbox/main.ts', '--port', '0', '--world', worldFile, '--log-level', 'info'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    )
    let out = ''
    child.stdout.on('data', (d: Buffer) => (out += d.toString()))
    try {
      const url = await waitFor(
        'CLI ready line',
        () => /SANDBOX_URL=(http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1],
        30_000,
        100,
      )
      const served = await getJson<World>(`${url}/world`)
      expect(served.accounts.map(a => a.phone)).toEqual(['15559990000'])
      const trust = await getJson<{ wsUrl: string }>(`${url}/trust`)
      expect(trust.wsUrl).toBe(`${url.replace('http', 'ws')}/ws/chat`)
    } finally {
      child.kill('SIGTERM')
      await new Promise(r => child.once('exit', r))
      await rm(dir, { recursive: true, force: true })
    }
  })
})
