/**
 * @module test/unit/storage/lmdb-store
 * What only the lmdb store promises: it can be written from two worker threads at once, a session one thread
 * registers is seen by another at once, and with STORE_FLUSH=second (flushed once a second, not per commit) a
 * committed write still survives a `kill -9` of the process that made it. The `Store` contract both engines keep is
 * ../store-contract.test.ts.
 */
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { Worker } from 'node:worker_threads'
import { describe, expect, it } from 'vitest'
import { openLmdbStore } from '../../../src/storage/lmdb-store.js'
import { storeHarness } from '../../support/store-harness.js'
import { waitFor } from '../../support/wait-for.js'

const { tempDir, openStore } = storeHarness('lmdb-store-')

describe('lmdb store', () => {
  it('accepts writes from two worker threads at once', async () => {
    const dir = tempDir()
    const storeUrl = new URL('../../../src/storage/lmdb-store.ts', import.meta.url).href
    const code = `
      const { workerData, parentPort } = require('node:worker_threads')
      ;(async () => {
        const { register } = await import('tsx/esm/api')
        register()
        const { openLmdbStore } = await import(workerData.storeUrl)
        const store = openLmdbStore(workerData.dir)
        for (let i = 0; i < 200; i++) {
          await store.auth(workerData.id).keys.set({ session: { ['k' + i]: Buffer.from([i % 256]) } })
        }
        await store.putSession({ id: workerData.id, secretHash: 'h', createdAt: 1, qrDeadline: null })
        await store.close()
        parentPort.postMessage('done')
      })().catch(err => { console.error(err); process.exit(1) })`
    const run = (id: string) =>
      new Promise<void>((resolve, reject) => {
        const w = new Worker(code, { eval: true, workerData: { dir, id, storeUrl } })
        w.once('message', () => resolve())
        w.once('error', reject)
        w.once('exit', c => (c === 0 ? resolve() : reject(new Error(`worker exit ${c}`))))
      })
    await Promise.all([run('w1'), run('w2')])
    const store = openStore(dir)
    expect((await store.listSessions()).map(s => s.id).sort()).toEqual(['w1', 'w2'])
    const ids = Array.from({ length: 200 }, (_, i) => `k${i}`)
    expect(Object.keys(await store.auth('w1').keys.get('session', ids))).toHaveLength(200)
    expect(Object.keys(await store.auth('w2').keys.get('session', ids))).toHaveLength(200)
  })

  it('lets a busy worker thread see a session registered by another thread in the same event-loop turn', async () => {
    // A shard thread that reads the registry, then handles the next task (start a session just registered by the
    // main thread) before its event loop turns, must not read an old snapshot: that lost sessions under load.
    const dir = tempDir()
    const store = openStore(dir)
    await store.putSession({ id: 'early', secretHash: 'h', createdAt: 1, qrDeadline: null })
    const storeUrl = new URL('../../../src/storage/lmdb-store.ts', import.meta.url).href
    const flags = new Int32Array(new SharedArrayBuffer(8))
    const code = `
      const { workerData, parentPort } = require('node:worker_threads')
      ;(async () => {
        const { register } = await import('tsx/esm/api')
        register()
        const { openLmdbStore } = await import(workerData.storeUrl)
        const store = openLmdbStore(workerData.dir)
        const flags = workerData.flags
        const seenEarly = (await store.getSession('early')) !== undefined
        // No await from here on: one synchronous stretch, as when tasks queue up behind busy work.
        Atomics.store(flags, 0, 1); Atomics.notify(flags, 0)
        Atomics.wait(flags, 1, 0, 10000)
        const p = store.getSession('late')
        parentPort.postMessage({ seenEarly, seenLate: (await p) !== undefined })
        await store.close()
      })().catch(err => { console.error(err); process.exit(1) })`
    const w = new Worker(code, { eval: true, workerData: { dir, storeUrl, flags } })
    const reply = new Promise<{ seenEarly: boolean; seenLate: boolean }>((resolve, reject) => {
      w.once('message', resolve)
      w.once('error', reject)
    })
    await waitFor('the worker to read the early session', () => Atomics.load(flags, 0) === 1, 10_000, 5)
    await store.putSession({ id: 'late', secretHash: 'h', createdAt: 2, qrDeadline: null })
    Atomics.store(flags, 1, 1)
    Atomics.notify(flags, 1)
    expect(await reply).toEqual({ seenEarly: true, seenLate: true })
    await new Promise(r => w.once('exit', r))
  })

  it('with a flush once a second, keeps a committed write through a kill -9 of its process, and through a close', async () => {
    const dir = tempDir()
    // a process that commits a key write, then kills itself before any flush timer could run
    const killed = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `const { openLmdbStore } = await import(${JSON.stringify(path.resolve('src/storage/lmdb-store.ts'))})
const store = openLmdbStore(${JSON.stringify(dir)}, { flush: 'second' })
await store.auth('s1').keys.set({ session: { '15550001111.0': Buffer.from('ratchet 1') } })
process.kill(process.pid, 'SIGKILL')`,
      ],
      { encoding: 'utf8' },
    )
    expect(killed.signal).toBe('SIGKILL')
    const store = openLmdbStore(dir, { flush: 'second' })
    const read = async (s: typeof store) => (await s.auth('s1').keys.get('session', ['15550001111.0']))['15550001111.0']
    expect(await read(store)).toEqual(Buffer.from('ratchet 1'))
    await store.auth('s1').keys.set({ session: { '15550001111.0': Buffer.from('ratchet 2') } })
    await store.close()
    const again = openStore(dir)
    expect(await read(again)).toEqual(Buffer.from('ratchet 2'))
  })
})
