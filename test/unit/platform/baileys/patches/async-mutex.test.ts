/**
 * The lock Baileys takes around key transactions and the stanzas it handles, as src/platform/baileys/patches/
 * async-mutex.ts gives it: each scenario runs on async-mutex's own Mutex (the reference, installed as Baileys'
 * dependency) and on ours, and what a caller sees (the order things happen in, results, errors, `isLocked`) must
 * be the same; then a shard-like fresh process shows Baileys' own mutexes and key transactions run on ours.
 */
import { Mutex as Reference } from 'async-mutex'
import { describe, expect, it } from 'vitest'
import { Mutex } from '../../../../../src/platform/baileys/patches/async-mutex.js'
import { inFreshProcess } from '../../../../support/fresh-process.js'

interface Lock {
  runExclusive<T>(callback: () => T | Promise<T>): Promise<T>
  isLocked(): boolean
}

const tick = (ms = 0) => new Promise(r => setTimeout(r, ms))

/** Five overlapping holders with uneven work, one of which fails: the order of starts and ends, and what each got. */
async function contended(lock: Lock) {
  const events: string[] = []
  const work = (name: string, ms: number, fail = false) =>
    lock.runExclusive(async () => {
      events.push(`start ${name} locked=${lock.isLocked()}`)
      await tick(ms)
      events.push(`end ${name}`)
      if (fail) throw new Error(`${name} failed`)
      return name
    })
  const calls = [work('a', 5), work('b', 1, true), work('c', 0), work('d', 3), work('e', 0)]
  events.push(`queued locked=${lock.isLocked()}`)
  const settled = await Promise.allSettled(calls)
  events.push(`done locked=${lock.isLocked()}`)
  return { events, settled: settled.map(s => (s.status === 'fulfilled' ? s.value : String(s.reason))) }
}

/** A callback that throws at once, and one that returns a plain value: both pass the lock on. */
async function synchronous(lock: Lock) {
  const thrown = await lock
    .runExclusive(() => {
      throw new Error('at once')
    })
    .catch((e: Error) => e.message)
  const value = await lock.runExclusive(() => 42)
  return { thrown, value, locked: lock.isLocked() }
}

/** Whether a callback starts within the call (it must not: async-mutex starts it on a later microtask). */
async function startsLater(lock: Lock) {
  let started = false
  const call = lock.runExclusive(() => {
    started = true
  })
  const during = { started, locked: lock.isLocked() }
  await call
  return { during, after: { started, locked: lock.isLocked() } }
}

describe("Baileys' mutex on the patched lock", () => {
  it('holders run one at a time in the order they came, as with async-mutex, a failure passing the lock on', async () => {
    const ours = await contended(new Mutex())
    expect(ours).toEqual(await contended(new Reference()))
    expect(ours.events.filter(e => e.startsWith('start')).map(e => e.split(' ')[1])).toEqual(['a', 'b', 'c', 'd', 'e'])
    expect(ours.settled).toEqual(['a', 'Error: b failed', 'c', 'd', 'e'])
    expect(ours.events.at(-1)).toBe('done locked=false')
  })

  it('a callback that throws at once or returns a plain value behaves as with async-mutex', async () => {
    const ours = await synchronous(new Mutex())
    expect(ours).toEqual(await synchronous(new Reference()))
    expect(ours).toEqual({ thrown: 'at once', value: 42, locked: false })
  })

  it('is locked from the call, and starts the callback only after the call returns', async () => {
    const ours = await startsLater(new Mutex())
    expect(ours).toEqual(await startsLater(new Reference()))
    expect(ours).toEqual({ during: { started: false, locked: true }, after: { started: true, locked: false } })
  })

  it("a shard thread's Baileys takes its mutexes and key transactions on it, not on async-mutex", () => {
    const r = inFreshProcess(`
const { Mutex: Reference } = await import('async-mutex')
let reference = 0
const original = Reference.prototype.runExclusive
Reference.prototype.runExclusive = function (...args) { reference++; return original.apply(this, args) }
await import('./src/platform/baileys/module.ts')
const { addTransactionCapability } = await import('@whiskeysockets/baileys')
const { makeMutex, makeKeyedMutex } = await import('@whiskeysockets/baileys/lib/Utils/make-mutex.js')
const { Mutex } = await import('./src/platform/baileys/patches/async-mutex.ts')
let ours = 0
const own = Mutex.prototype.runExclusive
Mutex.prototype.runExclusive = function (...args) { ours++; return own.apply(this, args) }
const order = []
const m = makeMutex()
await Promise.all([m.mutex(async () => { order.push('one') }), m.mutex(async () => { order.push('two') })])
await makeKeyedMutex().mutex('k', async () => { order.push('keyed') })
const stored = {}
const keys = addTransactionCapability({
  get: async (type, ids) => Object.fromEntries(ids.filter(id => stored[type + id]).map(id => [id, stored[type + id]])),
  set: async data => { for (const [type, byId] of Object.entries(data)) for (const [id, v] of Object.entries(byId)) stored[type + id] = v },
}, { trace() {}, debug() {}, info() {}, warn() {}, error() {} }, { maxCommitRetries: 1, delayBetweenTriesMs: 1 })
await keys.transaction(async () => { await keys.get('session', ['x']); await keys.set({ session: { x: 'written' } }) }, 'me')
console.log(JSON.stringify({ order, reference, ours, stored }))
`) as { order: string[]; reference: number; ours: number; stored: Record<string, string> }
    expect(r.order).toEqual(['one', 'two', 'keyed'])
    expect(r.stored).toEqual({ sessionx: 'written' })
    expect(r.reference).toBe(0)
    expect(r.ours).toBeGreaterThanOrEqual(4)
  })
})
