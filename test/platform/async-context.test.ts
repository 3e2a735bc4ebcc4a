/**
 * Baileys sockets built under `withSharedAsyncContext` keep their key-store transactions apart, yet the whole
 * thread enables a single real AsyncLocalStorage however many sockets exist (the per-socket storages were what made
 * every async step, and so every send, cost more with each socket).
 */
import asyncHooks, { AsyncLocalStorage } from 'node:async_hooks'
import { afterEach, describe, expect, it } from 'vitest'
import makeWASocket, { initAuthCreds, type WASocket } from '@whiskeysockets/baileys'
import pino from 'pino'
import { freePort } from '../../src/demo/processes.js'
import { MultiplexedStorage, withSharedAsyncContext } from '../../src/platform/async-context.js'
import { memoryAuthStore } from './memory-stores.js'

const logger = pino({ level: 'silent' })
const sockets: WASocket[] = []

/** A real Baileys socket pointed at a closed loopback port: it never connects, but its key store is live. */
async function socket(shared: boolean): Promise<WASocket> {
  const port = await freePort()
  const build = () => makeWASocket({
    auth: { creds: initAuthCreds(), keys: memoryAuthStore().keys },
    logger,
    waWebSocketUrl: `ws://127.0.0.1:${port}/ws/chat`,
    markOnlineOnConnect: false,
  })
  const sock = shared ? withSharedAsyncContext(build) : build()
  sock.ev.on('connection.update', () => {}) // the refused connection is expected
  sockets.push(sock)
  return sock
}

/** The real storages whose `run` is called while `fn` runs. */
async function realStoragesUsedBy(fn: () => Promise<unknown>): Promise<Set<AsyncLocalStorage<unknown>>> {
  const seen = new Set<AsyncLocalStorage<unknown>>()
  const run = AsyncLocalStorage.prototype.run
  AsyncLocalStorage.prototype.run = function (this: AsyncLocalStorage<unknown>, ...args: Parameters<typeof run>) {
    seen.add(this)
    return run.apply(this, args)
  } as typeof run
  try {
    await fn()
  } finally {
    AsyncLocalStorage.prototype.run = run
  }
  return seen
}

const transactEach = (socks: WASocket[]) => Promise.all(socks.map((s, i) =>
  s.authState.keys.transaction(async () => { await s.authState.keys.set({ 'sender-key-memory': { [`g${i}`]: { x: true } } }) }, 'k')))

afterEach(async () => {
  for (const s of sockets.splice(0)) await s.end(undefined).catch(() => {})
})

describe('withSharedAsyncContext', () => {
  it('makes every socket of the thread share one enabled AsyncLocalStorage', async () => {
    const socks = await Promise.all(Array.from({ length: 6 }, () => socket(true)))
    const used = await realStoragesUsedBy(() => transactEach(socks))
    expect(used.size).toBe(1)
    expect((([...used][0]) as unknown as { enabled: boolean }).enabled).toBe(true)
  })

  it('(control) without it, each socket enables a storage of its own', async () => {
    const socks = await Promise.all(Array.from({ length: 6 }, () => socket(false)))
    const used = await realStoragesUsedBy(() => transactEach(socks))
    expect(used.size).toBe(6)
  })

  it('keeps each socket\'s transaction its own: uncommitted writes and the in-transaction flag do not leak', async () => {
    const [a, b] = [await socket(true), await socket(true)]
    let release!: () => void
    const gate = new Promise<void>(r => { release = r })
    const seenInA: unknown[] = []
    const txA = a.authState.keys.transaction(async () => {
      await a.authState.keys.set({ session: { peer: Buffer.from('from-a') } })
      seenInA.push(a.authState.keys.isInTransaction(), b.authState.keys.isInTransaction())
      await gate // b works while a's transaction is open
      seenInA.push(String((await a.authState.keys.get('session', ['peer'])).peer))
    }, 'peer')
    const seenInB = await b.authState.keys.transaction(async () => {
      const flags = [a.authState.keys.isInTransaction(), b.authState.keys.isInTransaction()]
      const peer = (await b.authState.keys.get('session', ['peer'])).peer
      await b.authState.keys.set({ session: { peer: Buffer.from('from-b') } })
      return [...flags, peer]
    }, 'peer')
    release()
    await txA
    expect(seenInA).toEqual([true, false, 'from-a'])
    expect(seenInB).toEqual([false, true, undefined])
    expect(a.authState.keys.isInTransaction()).toBe(false)
    expect(String((await b.authState.keys.get('session', ['peer'])).peer)).toBe('from-b') // committed on its own
  })

  it('restores the real AsyncLocalStorage for everyone else', () => {
    const inside = withSharedAsyncContext(() => new asyncHooks.AsyncLocalStorage())
    expect(inside).toBeInstanceOf(MultiplexedStorage)
    expect(new asyncHooks.AsyncLocalStorage()).not.toBeInstanceOf(MultiplexedStorage)
  })

  it('behaves like a storage of its own: nesting, exit, enterWith', async () => {
    const one = new MultiplexedStorage<string>()
    const two = new MultiplexedStorage<string>()
    const seen = await one.run('a', async () => {
      await new Promise(r => setTimeout(r, 1))
      return two.run('b', async () => {
        await Promise.resolve()
        const nested = [one.getStore(), two.getStore()]
        const exited = one.exit(() => [one.getStore(), two.getStore()])
        return [...nested, ...exited, await one.run('c', async () => one.getStore())]
      })
    })
    expect(seen).toEqual(['a', 'b', undefined, 'b', 'c'])
    expect(one.getStore()).toBeUndefined()
  })
})
