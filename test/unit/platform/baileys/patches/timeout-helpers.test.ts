/**
 * Baileys' time-out helpers made a stack into text, twice, and a `Cancelled` Boom on every call that ended in time;
 * src/platform/baileys/patches/timeout-helpers.ts rewrites them as they load (source-hook.ts). The hook acts on the
 * first import of Baileys in a thread, which in this test runner has happened long before, so the behaviour is
 * checked in a fresh process that installs the hook as a shard does.
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import {
  timeoutHelpersPatch,
  timeoutHelpersSource,
} from '../../../../../src/platform/baileys/patches/timeout-helpers.js'
import { inFreshProcess } from '../../../../support/fresh-process.js'

/**
 * Ten calls that end in time: how many of the helpers' stacks were made text, how many errors were made, and how many timers are
 * left; then what a timed rejection and a 10 ms time-out reject with.
 */
const probe = (setup: string) => `
${setup}
const { promiseTimeout } = await import('@whiskeysockets/baileys')
let formatted = 0
let errors = 0
const prepare = Error.prepareStackTrace
// only the helpers' stacks count (tsx makes one of its own now and then)
Error.prepareStackTrace = (err, frames) => { if (frames.some(f => String(f.getFileName()).endsWith('/Utils/generics.js'))) formatted++; return prepare ? prepare(err, frames) : String(err) + frames.map(f => '\\n    at ' + f).join('') }
const capture = Error.captureStackTrace
Error.captureStackTrace = (...args) => { errors++; return capture(...args) }
// every \`new Error()\` made while the calls run (Boom's own class keeps the real Error)
const RealError = Error
globalThis.Error = new Proxy(RealError, { construct(target, args, newTarget) { errors++; return Reflect.construct(target, args, newTarget === globalThis.Error ? target : newTarget) } })
const timers = () => process.getActiveResourcesInfo().filter(r => r === 'Timeout').length
const timersBefore = timers()
const values = []
for (let i = 0; i < 10; i++) values.push(await promiseTimeout(1000, resolve => resolve(i)))
await new Promise(r => setImmediate(r))
const whileOk = { formatted, errors, timersLeft: timers() - timersBefore, values }
globalThis.Error = RealError
const rejected = await promiseTimeout(1000, (_, reject) => reject(new Error('refused'))).catch(e => e.message)
const thrown = await promiseTimeout(1000, () => { throw new Error('thrown') }).catch(e => e.message)
const err = await promiseTimeout(10, () => {}).catch(e => e)
const stack = err.data?.stack
console.log(JSON.stringify({ whileOk, rejected, thrown, message: err.message, status: err.output?.statusCode, isBoom: err.isBoom, stack: typeof stack === 'string' ? stack : null, timersAfter: timers() - timersBefore }))
`

describe('timeout-helpers patch', () => {
  it('finds the helpers in the pinned Baileys source and leaves another version alone', () => {
    const source = readFileSync(fileURLToPath(timeoutHelpersPatch.url), 'utf8')
    const patched = timeoutHelpersSource(source)
    expect(patched).toBeDefined()
    expect(patched).not.toContain('new Error().stack')
    const promiseTimeout = patched?.slice(patched.indexOf('export async function promiseTimeout'))
    const body = promiseTimeout?.slice(0, promiseTimeout.indexOf('\n}'))
    expect(body).not.toContain('delayCancellable')
    expect(body).not.toContain('new Error')
    expect(patched?.match(/get stack\(\)/g)).toHaveLength(1) // delayCancellable's
    expect(timeoutHelpersSource(source.replace('}).finally(cancel);', '});'))).toBeUndefined()
    expect(timeoutHelpersSource(source.replace('const stack = new Error().stack;', ''))).toBeUndefined()
  })

  it('calls that end in time take no stack and make no error; a time-out still rejects with the same Boom', () => {
    const before = inFreshProcess(probe('')) as Record<string, unknown>
    const after = inFreshProcess(
      probe(`
const { installSourcePatches } = await import('./src/platform/baileys/patches/source-hook.ts')
const { timeoutHelpersPatch } = await import('./src/platform/baileys/patches/timeout-helpers.ts')
installSourcePatches([timeoutHelpersPatch])`),
    ) as Record<string, unknown>
    // unpatched: two stacks made text per call (promiseTimeout's and delayCancellable's), and the Cancelled Boom
    const unpatched = before.whileOk as { formatted: number; errors: number; timersLeft: number }
    expect(unpatched.formatted).toBeGreaterThanOrEqual(20)
    expect(unpatched.errors).toBeGreaterThanOrEqual(10)
    expect(unpatched.timersLeft).toBe(0)
    expect(after.whileOk).toEqual({ formatted: 0, errors: 0, timersLeft: 0, values: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] })
    for (const r of [before, after]) {
      expect(r).toMatchObject({
        rejected: 'refused',
        thrown: 'thrown',
        message: 'Timed Out',
        status: 408,
        isBoom: true,
      })
      expect(r.timersAfter).toBe(0)
    }
    // Baileys put the caller's stack in the Boom's data; the patch takes none (nothing in the gateway reads it)
    expect(before.stack).toMatch(/^Error\n\s+at promiseTimeout /)
    expect(after.stack).toBeNull()
  })
})
