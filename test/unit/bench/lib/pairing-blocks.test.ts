/**
 * bench:scale's pairing blocks (bench/lib/pairing-blocks.ts): one line per block of pairings with the gateway's and
 * the sandbox's CPU a pairing, and a figure that fails when the last block costs over 1.2 × the first (a cost per
 * pairing that grows with the fleet), whatever the machine's load did to the rate.
 */
import { describe, expect, it } from 'vitest'
import { PairingBlocks } from '../../../../bench/lib/pairing-blocks.js'

/** Blocks of 10 pairings whose CPU a pairing is `perPairing[i]` (gateway, sandbox) ms in block i. */
function run(perPairing: Array<[number, number]>): PairingBlocks {
  const cpu = { gateway: 0, sandbox: 0 }
  const blocks = new PairingBlocks(10, () => ({ ...cpu }))
  let done = 0
  for (const [gateway, sandbox] of perPairing) {
    for (let i = 0; i < 10; i++) {
      cpu.gateway += gateway / 1000
      cpu.sandbox += sandbox / 1000
      const line = blocks.paired(++done)
      if (i < 9) expect(line).toBeUndefined()
      else expect(line).toMatch(new RegExp(`a second, CPU ms a pairing gateway/sandbox ${gateway}/${sandbox}$`))
    }
  }
  return blocks
}

describe('PairingBlocks', () => {
  it('passes a fleet whose CPU a pairing stays flat, and lists every block', () => {
    const figure = run([
      [120, 30],
      [100, 30],
      [104, 31],
    ]).figure(30, 10)
    expect(figure!.value).toBeCloseTo(135 / 150, 6)
    expect(figure!.met).toBe(true)
    expect(figure!.detail).toContain('per 10: 120/30, 100/30, 104/31;')
  })

  it('fails a fleet whose sandbox costs more with every pairing', () => {
    const figure = run([
      [126, 38],
      [130, 48],
      [130, 90],
    ]).figure(30, 10)
    expect(figure!.value).toBeCloseTo(220 / 164, 6)
    expect(figure!.met).toBe(false)
  })

  it('gives no figure from a single block', () => {
    expect(run([[100, 30]]).figure(10, 10)).toBeUndefined()
  })
})
