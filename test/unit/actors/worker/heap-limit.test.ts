/**
 * The one full collection a shard thread runs once its platform client is loaded (src/actors/worker/heap-limit.ts):
 * it collects, and leaves no global `gc` behind in this thread or in threads started later.
 */
import v8 from 'node:v8'
import vm from 'node:vm'
import { Worker } from 'node:worker_threads'
import { describe, expect, it } from 'vitest'
import { collectGarbageOnce } from '../../../../src/actors/worker/heap-limit.js'

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
})
