/**
 * Baileys' uses of `whatsapp-rust-bridge` (md5, hkdf, the app-state keys, the app-state integrity hash) answered by
 * Node's crypto (src/platform/baileys/patches/wasm-bridge.ts): each function gives the bridge's own answer on random
 * inputs (the bridge stays installed as Baileys' dependency, so it is the reference), and a shard thread that
 * loads Baileys with the patches installed never loads the bridge while Baileys' own functions give the same bytes.
 */
import { randomBytes } from 'node:crypto'
import * as bridge from 'whatsapp-rust-bridge'
import { describe, expect, it } from 'vitest'
import * as ours from '../../../../../src/platform/baileys/patches/wasm-bridge.js'
import { inFreshProcess } from '../../../../support/fresh-process.js'

const KEYS = ['indexKey', 'valueEncryptionKey', 'valueMacKey', 'snapshotMacKey', 'patchMacKey'] as const
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex')

describe('the wasm bridge answered by Node crypto', () => {
  it('md5 and hkdf (with and without salt or info, lengths 1-255, an empty key) give the bridge’s bytes', () => {
    for (let i = 0; i < 100; i++) {
      const ikm = randomBytes(1 + (i % 70))
      const length = 1 + ((i * 37) % 255)
      const salt = randomBytes(1 + (i % 40))
      expect(hex(ours.md5(ikm))).toBe(hex(bridge.md5(ikm)))
      for (const info of [{ salt, info: `info ${i}` }, { info: 'WhatsApp Media Keys' }, { salt }, {}])
        expect(hex(ours.hkdf(ikm, length, info)), JSON.stringify({ i, length })).toBe(
          hex(bridge.hkdf(ikm, length, info)),
        )
    }
    // an empty key (HKDF allows it; a KeyObject of no bytes must give the same answer)
    const empty = new Uint8Array(0)
    expect(hex(ours.hkdf(empty, 32, { info: 'Report Token' }))).toBe(
      hex(bridge.hkdf(empty, 32, { info: 'Report Token' })),
    )
  })

  it('the five app-state keys match', () => {
    for (let i = 0; i < 20; i++) {
      const keyData = randomBytes(32)
      const expected = bridge.expandAppStateKeys(keyData)
      const got = ours.expandAppStateKeys(keyData)
      for (const k of KEYS) expect(hex(got[k]), k).toBe(hex(expected[k]))
    }
  })

  it('the integrity hash matches when values are removed and added, and leaves its base untouched', () => {
    const theirs = new bridge.LTHashAntiTampering()
    const mine = new ours.LTHashAntiTampering()
    for (let i = 0; i < 50; i++) {
      const base = randomBytes(128)
      const before = hex(base)
      const remove = Array.from({ length: i % 4 }, () => randomBytes(32 + (i % 3) * 16))
      const add = Array.from({ length: (i + 1) % 5 }, () => randomBytes(32))
      expect(hex(mine.subtractThenAdd(base, remove, add))).toBe(hex(theirs.subtractThenAdd(base, remove, add)))
      expect(hex(base)).toBe(before)
    }
    // adding a value and removing it again gives the base back (words wrap modulo 2^16)
    const base = randomBytes(128)
    const value = randomBytes(32)
    expect(hex(mine.subtractThenAdd(mine.subtractThenAdd(base, [], [value]), [value], []))).toBe(hex(base))
  })

  it("a shard thread's Baileys uses them and never loads the bridge", () => {
    const r = inFreshProcess(`
const { registerHooks } = await import('node:module')
const loaded = []
registerHooks({ resolve(s, c, next) { const r = next(s, c); loaded.push(r.url); return r } })
await import('./src/platform/baileys/module.ts')
const baileys = await import('@whiskeysockets/baileys')
const keyData = Buffer.alloc(32, 7)
console.log(JSON.stringify({
  bridge: loaded.filter(u => u.includes('whatsapp-rust-bridge')),
  hkdf: Buffer.from(baileys.hkdf(keyData, 48, { info: 'x' })).toString('hex'),
  md5: Buffer.from(baileys.md5(keyData)).toString('hex'),
}))
`) as { bridge: string[]; hkdf: string; md5: string }
    const keyData = Buffer.alloc(32, 7)
    expect(r.bridge).toEqual([])
    expect(r.hkdf).toBe(hex(bridge.hkdf(keyData, 48, { info: 'x' })))
    expect(r.md5).toBe(hex(bridge.md5(keyData)))
  })
})
