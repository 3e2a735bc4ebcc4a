/**
 * The module a shard loads (src/platform/baileys/module.ts) makes the thread cut small Buffers from 8 KB pool slabs
 * instead of Node 24's 64 KB ones, so a key a session keeps pins 8 KB, not 64 KB. Checked in a fresh process: the
 * test runner's own pool is not the shard's.
 */
import { execFileSync } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..')

describe('baileys platform module', () => {
  it('cuts small Buffers from 8 KB slabs once loaded', () => {
    const out = execFileSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `
await import('./src/platform/baileys/module.ts')
// the slab in use when the size changed is used up first
for (let i = 0; i < 2048; i++) Buffer.from('0123456789abcdef0123456789abcdef')
const key = Buffer.from('0123456789abcdef0123456789abcdef')
console.log(JSON.stringify({ poolSize: Buffer.poolSize, slab: key.buffer.byteLength }))
`,
      ],
      { cwd: root, encoding: 'utf8' },
    )
    const r = JSON.parse(out.trim().split('\n').at(-1)!)
    expect(r).toEqual({ poolSize: 8192, slab: 8192 })
  })
})
