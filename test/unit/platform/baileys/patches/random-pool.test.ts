/**
 * Small synchronous `randomBytes` calls served from one pool of CSPRNG bytes (src/platform/baileys/patches/
 * random-pool.ts): each call gets the next unused bytes, never bytes handed out before, and the pool keeps no copy of
 * what it handed out; Baileys' ES-module named import and libsignal's `require('crypto')` both go through it;
 * large requests, the callback form and bad sizes behave as Node's own.
 */
import crypto from 'node:crypto'
import { createRequire } from 'node:module'
import { generateMessageIDV2 } from '@whiskeysockets/baileys'
import { describe, expect, it, vi } from 'vitest'
import {
  installRandomPool,
  MAX_POOLED_BYTES,
  pooledRandomBytes,
} from '../../../../../src/platform/baileys/patches/random-pool.js'

const fromBaileys = createRequire(createRequire(import.meta.url).resolve('@whiskeysockets/baileys/package.json'))

describe('pooled random bytes', () => {
  it('hands out the next unused bytes, refills when used up, and keeps no copy of what it handed out', () => {
    let fills = 0
    let pool: Buffer | undefined
    // a counting "CSPRNG": every byte of every fill is distinct (fill n: n*64 + i), so a reuse would show
    const take = pooledRandomBytes(p => {
      pool = p
      for (let i = 0; i < p.length; i++) p[i] = (fills * 64 + i) % 256
      fills++
    }, 64)
    const a = take(40)
    expect(fills).toBe(1)
    expect([...a]).toEqual([...Array(40).keys()])
    expect(pool!.subarray(0, 40).every(b => b === 0)).toBe(true) // zeroed once handed out
    const b = take(24)
    expect([...b]).toEqual([...Array(24).keys()].map(i => 40 + i))
    expect(fills).toBe(1)
    const c = take(8) // does not fit: a fresh fill, from its start
    expect(fills).toBe(2)
    expect([...c]).toEqual([...Array(8).keys()].map(i => (64 + i) % 256))
    // each result is its own memory: changing one changes nothing else
    a.fill(0xff)
    expect([...b]).toEqual([...Array(24).keys()].map(i => 40 + i))
    expect(take(0)).toHaveLength(0)
  })

  it("reaches Baileys' ES-module named imports and libsignal's require('crypto') once installed", () => {
    installRandomPool()
    installRandomPool() // idempotent
    const fill = vi.spyOn(crypto, 'randomFillSync')
    // Baileys' message id (16 random bytes) and libsignal's key pair (32): at most one pool fill for both
    expect(generateMessageIDV2('15550001111@s.whatsapp.net')).toMatch(/^3EB0[0-9A-F]+$/)
    const curve = fromBaileys('libsignal/src/curve.js') as { generateKeyPair(): { pubKey: Buffer; privKey: Buffer } }
    const one = curve.generateKeyPair()
    const two = curve.generateKeyPair()
    expect(one.privKey.equals(two.privKey)).toBe(false)
    expect(fill.mock.calls.length).toBeLessThanOrEqual(1)
    fill.mockRestore()
  })

  it('gives distinct bytes of the asked size, and leaves large, asynchronous and invalid requests to Node', async () => {
    installRandomPool()
    const seen = new Set<string>()
    for (let i = 0; i < 1000; i++) {
      const bytes = crypto.randomBytes(16)
      expect(bytes).toHaveLength(16)
      seen.add(bytes.toString('hex'))
    }
    expect(seen.size).toBe(1000)
    expect(crypto.randomBytes(MAX_POOLED_BYTES + 1)).toHaveLength(MAX_POOLED_BYTES + 1)
    const viaCallback = await new Promise<Buffer>((resolve, reject) =>
      crypto.randomBytes(8, (err, buf) => (err ? reject(err) : resolve(buf))),
    )
    expect(viaCallback).toHaveLength(8)
    expect(() => crypto.randomBytes(-1)).toThrow(RangeError)
    expect(() => crypto.randomBytes('8' as unknown as number)).toThrow(TypeError)
  })
})
