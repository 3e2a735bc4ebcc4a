/**
 * Every shell and TypeScript block of the README and of the pages under docs/ that is not marked
 * `<!-- not run: why -->` runs as a reader pastes it, in the document's order, against a sandbox and a gateway of
 * this test's own: the README's first session (create, view link, scan, send, Bob's inbox, delete), the waiting
 * GET /session, view links, pairing codes and proxies of docs/api.md, and its typed client example, which pairs
 * before it sends. The documents name the demo's addresses (`127.0.0.1:3000`, `127.0.0.1:7800`); those are the only
 * words changed. Each command must succeed and print what the line under it shows (test/support/example-output.ts
 * says how values that differ from run to run are matched), and the texts the examples send must reach Bob's phone.
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { type CodeBlock, codeBlocks, RUNNABLE_DOCS, shellSteps } from '../../support/doc-blocks.js'
import { Examples } from '../../support/example-output.js'
import { repoRoot } from '../../support/readme.js'
import { inbox } from '../../support/system/harness.js'
import { gatewayWorld } from '../../support/system/paired-gateway.js'

const run = promisify(execFile)
// the proxy examples name proxies on this machine, as `npm run demo` allows
const world = gatewayWorld({ env: { SESSION_PROXY_ALLOW_PRIVATE: 'true' } })
const BOB = '15550000002'
const scratch = mkdtempSync(path.join(os.tmpdir(), 'doc-examples-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

/** The demo's addresses, as the documents write them, moved to this test's gateway and sandbox. */
function here(text: string): string {
  const gateway = world.gw.url
  const sandbox = world.sandbox.url
  return text
    .replaceAll('http://127.0.0.1:3000', gateway)
    .replaceAll('http://127.0.0.1:7800', sandbox)
    .replaceAll('npm run demo:scan -- --', `npm run demo:scan -- --gateway ${gateway} --sandbox ${sandbox} --`)
}

/** `A=1 B=2`: a line that only sets shell variables, kept for the commands after it. */
const ASSIGNMENTS = /^(\w+=\S+)(\s+\w+=\S+)*$/

async function runShell(block: CodeBlock, vars: Record<string, string>, examples: Examples): Promise<void> {
  for (const step of shellSteps(block.code)) {
    const where = `${block.file}:${block.line}: ${step.command}`
    const command = here(examples.substitute(step.command))
    if (ASSIGNMENTS.test(command.trim())) {
      for (const pair of command.trim().split(/\s+/))
        vars[pair.slice(0, pair.indexOf('='))] = pair.slice(pair.indexOf('=') + 1)
      continue
    }
    const { stdout } = await run('bash', ['-o', 'pipefail', '-c', command], {
      cwd: repoRoot,
      env: { ...process.env, ...vars },
      timeout: 120_000,
    })
    if (step.expected !== undefined) examples.check(here(step.expected), stdout, where)
  }
}

async function runTypeScript(block: CodeBlock): Promise<void> {
  const file = path.join(scratch, `block-${block.line}.mts`)
  // as a file in the repository's root (an ES module there) importing the client by its path
  writeFileSync(file, here(block.code).replaceAll("from './src/", `from '${repoRoot}/src/`))
  const { stdout } = await run('npx', ['tsx', file], { cwd: repoRoot, timeout: 180_000 })
  expect(stdout, `${block.file}:${block.line} prints the answer of POST /message`).toMatch(/messageId: '\w+'/)
}

describe('the examples of the README and docs/, run as written', () => {
  it.each(RUNNABLE_DOCS.map(file => [file]))(
    '%s',
    async file => {
      const blocks = codeBlocks(file).filter(b => !b.notRun && (b.lang === 'sh' || b.lang === 'ts'))
      // the pages' examples act on a session of the reader's, in ID and SID (the README makes its own)
      const session = await world.gw.createSession()
      const vars: Record<string, string> = { ID: session.id, SID: session.sessionId }
      const examples = new Examples()
      for (const block of blocks) {
        if (block.lang === 'sh') await runShell(block, vars, examples)
        else await runTypeScript(block)
      }
    },
    300_000,
  )

  it("the texts the examples send reached Bob's phone", async () => {
    const texts = (await inbox(world.sandbox.url, BOB)).map(m => m.text)
    expect(texts).toContain('hello Bob')
    expect(texts).toContain('hello from the typed client')
  })
})
