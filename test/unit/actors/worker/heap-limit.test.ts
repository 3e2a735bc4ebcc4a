/**
 * The one full collection a shard thread runs once its platform client is loaded (src/actors/worker/heap-limit.ts):
 * it collects, and leaves no global `gc` behind in this thread or in threads started later. And the
 * memory-reducing collection a quiet thread runs (actors/idle-heap.ts): it gives back the young generation that fast
 * allocation grew.
 */
import v8 from 'node:v8'
import vm from 'node:vm'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'
import { describe, expect, it } from 'vitest'
import { collectGarbageOnce } from '../../../../src/actors/worker/heap-limit.js'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..')

describe('collectGarbageOnce', () => {
  it('collects the garbage of the thread', () => {
    let garbage: object[] | undefined = Array.from({ length: 200_000 }, (_, i) => ({ i, s: `x${i}` }))
    const before = v8.getHeapStatistics().used_heap_size
    garbage = undefined
    collectGarbageOnce()
    expect(garbage).toBeUndefined()
    expect(v8.getHeapStatistics().used_heap_size).toBeLessThan(before - 5 * 1024 * 1024)
  })

  it('exposes no gc to this context, new contexts or threads started later', async () => {
    collectGarbageOnce()
    expect(typeof (globalThis as { gc?: unknown }).gc).toBe('undefined')
    expect(vm.runInNewContext('typeof gc')).toBe('undefined')
    const worker = new Worker("require('node:worker_threads').parentPort.postMessage(typeof gc)", { eval: true })
    const seen = await new Promise(resolve => worker.once('message', resolve))
    await worker.terminate()
    expect(seen).toBe('undefined')
  })

  it('never fails when threads take the collection at the same time (the flag is process-wide)', async () => {
    const module = pathToFileURL(path.join(root, 'src/actors/worker/heap-limit.ts')).href
    const body = `(async () => {
      const { parentPort } = require('node:worker_threads')
      const { collectGarbageOnce } = await import(${JSON.stringify(module)})
      let failed = 0
      for (let i = 0; i < 100; i++) try { collectGarbageOnce() } catch { failed++ }
      parentPort.postMessage({ failed, gc: typeof gc })
    })()`
    const results = await Promise.all(
      [1, 2, 3].map(async () => {
        const worker = new Worker(body, { eval: true, execArgv: ['--import', 'tsx'] })
        const result = await new Promise((resolve, reject) => {
          worker.once('message', resolve)
          worker.once('error', reject)
        })
        await worker.terminate()
        return result
      }),
    )
    expect(results).toEqual([0, 0, 0].map(() => ({ failed: 0, gc: 'undefined' })))
  })

  it('the memory-reducing collection shrinks a young generation that fast allocation grew', async () => {
    const module = pathToFileURL(path.join(root, 'src/actors/worker/heap-limit.ts')).href
    // in a thread of its own, whose new space starts at its smallest (this runner's own thread has its history)
    const body = `(async () => {
      const { parentPort } = require('node:worker_threads')
      const v8 = require('node:v8')
      const { collectGarbageReducingMemory } = await import(${JSON.stringify(module)})
      const newSpace = () => v8.getHeapSpaceStatistics().find(s => s.space_name === 'new_space').space_size
      const start = newSpace()
      let keep = []
      for (let i = 0; i < 3e6; i++) { keep.push({ i }); if (keep.length > 20000) keep = [] }
      const grown = newSpace()
      collectGarbageReducingMemory()
      parentPort.postMessage({ start, grown, after: newSpace(), gc: typeof gc })
    })()`
    const worker = new Worker(body, { eval: true, execArgv: ['--import', 'tsx'] })
    const r = (await new Promise((resolve, reject) => {
      worker.once('message', resolve)
      worker.once('error', reject)
    })) as { start: number; grown: number; after: number; gc: string }
    await worker.terminate()
    expect(r.grown).toBeGreaterThan(r.start)
    expect(r.after).toBeLessThan(r.grown)
    expect(r.after).toBeLessThanOrEqual(r.start)
    expect(r.gc).toBe('undefined')
  })
})
