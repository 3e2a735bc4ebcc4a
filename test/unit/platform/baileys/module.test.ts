/**
 * The module a shard loads (src/platform/baileys/module.ts) makes the thread cut small Buffers from 8 KB pool slabs
 * instead of Node 24's 64 KB ones, so a key a session keeps pins 8 KB, not 64 KB; and it leaves out what a shard
 * on the real platform sending text never uses. Checked in a fresh process: the test runner's own pool and modules
 * are not the shard's.
 */
import { describe, expect, it } from 'vitest'
import { inFreshProcess } from '../../../support/fresh-process.js'

describe('baileys platform module', () => {
  it('cuts small Buffers from 8 KB slabs once loaded', () => {
    const r = inFreshProcess(`
await import('./src/platform/baileys/module.ts')
// the slab in use when the size changed is used up first
for (let i = 0; i < 2048; i++) Buffer.from('0123456789abcdef0123456789abcdef')
const key = Buffer.from('0123456789abcdef0123456789abcdef')
console.log(JSON.stringify({ poolSize: Buffer.poolSize, slab: key.buffer.byteLength }))
`)
    expect(r).toEqual({ poolSize: 8192, slab: 8192 })
  })

  it('loads neither the image library nor undici: the first image and the first sandbox socket do', () => {
    const loaded = inFreshProcess(`
import { registerHooks } from 'node:module'
const urls = []
registerHooks({ load(url, context, nextLoad) { urls.push(url); return nextLoad(url, context) } })
await import('./src/platform/baileys/module.ts')
console.log(JSON.stringify(urls))
`) as string[]
    expect(loaded.some(url => url.includes('/node_modules/@whiskeysockets/baileys/'))).toBe(true) // the trace works
    // libvips (~14 MB) and undici (~4 MB of heap a thread): a shard on the real platform sending text needs neither
    expect(loaded.filter(url => /\/node_modules\/(sharp|@img|undici)\//.test(url))).toEqual([])
  })
})
