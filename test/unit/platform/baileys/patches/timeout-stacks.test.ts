/**
 * Baileys' time-out helpers turned the caller's stack into text on every call; the load hook of
 * src/platform/baileys/patches/timeout-stacks.ts makes that text only when a time-out's error is read. The hook acts
 * on the first import of Baileys in a thread, which in this test runner has happened long before, so the behaviour
 * is checked in a fresh process that installs the hook as a shard does (through src/platform/baileys/module.ts).
 */
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { GENERICS_URL, lazyStackSource } from '../../../../../src/platform/baileys/patches/timeout-stacks.js'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../..')

/** Runs `body` (an ES module) in a fresh Node process with tsx; returns what it printed as JSON. */
function inFreshProcess(body: string): unknown {
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', body], {
    cwd: root,
    encoding: 'utf8',
  })
  return JSON.parse(out.trim().split('\n').at(-1)!)
}

/** Counts the stacks turned into text while `run` goes, and what a 10 ms time-out rejects with. */
const probe = (setup: string) => `
${setup}
const { promiseTimeout } = await import('@whiskeysockets/baileys')
let formatted = 0
const prepare = Error.prepareStackTrace
Error.prepareStackTrace = (err, frames) => { formatted++; return prepare ? prepare(err, frames) : String(err) + frames.map(f => '\\n    at ' + f).join('') }
for (let i = 0; i < 10; i++) await promiseTimeout(1000, resolve => resolve(i))
const whileOk = formatted
const err = await promiseTimeout(10, () => {}).catch(e => e)
const stack = err.data?.stack
console.log(JSON.stringify({ whileOk, message: err.message, status: err.output?.statusCode, stack: typeof stack === 'string' ? stack : null }))
`

describe('timeout-stacks patch', () => {
  it('finds the two eager stacks in the pinned Baileys source', () => {
    const source = readFileSync(fileURLToPath(GENERICS_URL), 'utf8')
    const patched = lazyStackSource(source)
    expect(patched).toBeDefined()
    expect(patched).not.toContain('new Error().stack')
    expect(patched?.match(/get stack\(\)/g)).toHaveLength(2)
    // another version's source is left alone
    expect(lazyStackSource(source.replace('const stack = new Error().stack;', ''))).toBeUndefined()
  })

  it('no stack is made text while calls end in time; a time-out still carries the caller stack', () => {
    const before = inFreshProcess(probe('')) as Record<string, unknown>
    const after = inFreshProcess(
      probe(`
const { installTimeoutStacks, patchedSources } = await import('./src/platform/baileys/patches/timeout-stacks.ts')
installTimeoutStacks()`),
    ) as Record<string, unknown>
    // unpatched: two stacks per call (promiseTimeout's and delayCancellable's), made text at once
    expect(before.whileOk).toBe(20)
    expect(after.whileOk).toBe(0)
    for (const r of [before, after]) {
      expect(r.message).toBe('Timed Out')
      expect(r.status).toBe(408)
      expect(r.stack).toMatch(/^Error\n\s+at promiseTimeout /)
    }
  })

  it('is installed before the adapter loads Baileys, in the module a shard loads', () => {
    const r = inFreshProcess(`
const mod = await import('./src/platform/baileys/module.ts')
const { patchedSources } = await import('./src/platform/baileys/patches/timeout-stacks.ts')
console.log(JSON.stringify({ factory: typeof mod.createBaileysLink, patched: patchedSources().generics }))
`)
    expect(r).toEqual({ factory: 'function', patched: 'patched' })
  })
})
