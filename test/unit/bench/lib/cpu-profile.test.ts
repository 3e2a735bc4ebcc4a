/** The profile summariser: self time per package and function, over threads, idle apart. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { packageOf, readProfiles, summariseProfiles, type CpuProfile } from '../../../../bench/lib/cpu-profile.js'

const root = '/repo'
const frame = (id: number, functionName: string, url: string, lineNumber = 0) => ({
  id,
  callFrame: { functionName, url, lineNumber },
})

/** Main thread: 30 ms in libsignal, 10 ms in our actor code, 50 ms idle. */
const main: CpuProfile = {
  nodes: [
    frame(1, '(root)', ''),
    frame(2, 'generateKeyPair', 'file:///repo/node_modules/libsignal/src/curve.js', 9),
    frame(3, 'handle', 'file:///repo/src/actors/session/command.ts', 41),
    frame(4, '(idle)', ''),
  ],
  startTime: 1_000_000,
  samples: [2, 2, 3, 4, 2],
  timeDeltas: [10_000, 10_000, 10_000, 50_000, 10_000],
}
/** A worker thread: 20 ms in Baileys (scoped package path), 5 ms garbage collection. */
const worker: CpuProfile = {
  nodes: [
    frame(1, '(root)', ''),
    frame(2, 'encode', 'file:///repo/node_modules/@whiskeysockets/baileys/lib/x.js', 3),
    frame(3, '(garbage collector)', ''),
  ],
  startTime: 1_000_000,
  samples: [2, 3, 2],
  timeDeltas: [10_000, 5_000, 10_000],
}

describe('cpu profile summary', () => {
  it('sums self time per package over every thread, counting idle apart', () => {
    const s = summariseProfiles([main, worker], { root })
    expect(s.threads).toBe(2)
    expect(s.idleMs).toBe(50)
    expect(s.busyMs).toBe(65)
    expect(s.byPackage.map(p => [p.name, p.ms])).toEqual([
      ['libsignal', 30],
      ['@whiskeysockets/baileys', 20],
      ['src/actors', 10],
      ['(garbage collector)', 5],
    ])
    expect(s.byPackage[0]!.share).toBeCloseTo(30 / 65)
  })

  it('names functions with their package and line, and keeps only the top entries', () => {
    const s = summariseProfiles([main, worker], { root, top: 2 })
    expect(s.byFunction.map(f => f.name)).toEqual(['generateKeyPair libsignal:10', 'encode @whiskeysockets/baileys:4'])
  })

  it('keeps only the samples inside the time windows when given', () => {
    // main's samples land at +10, +20, +30, +80, +90 ms; worker's at +10, +15, +25 ms
    const s = summariseProfiles([main, worker], { root, windows: [{ fromUs: 1_015_000, toUs: 1_030_000 }] })
    expect(Object.fromEntries(s.byPackage.map(p => [p.name, p.ms]))).toEqual({
      '@whiskeysockets/baileys': 10,
      libsignal: 10,
      'src/actors': 10,
      '(garbage collector)': 5,
    })
    const two = summariseProfiles([main], {
      root,
      windows: [
        { fromUs: 1_005_000, toUs: 1_010_000 },
        { fromUs: 1_085_000, toUs: 1_095_000 },
      ],
    })
    expect(two.byPackage.map(p => [p.name, p.ms])).toEqual([['libsignal', 20]])
  })

  it('counts Node built-ins and native code for the nearest package that called them', () => {
    const p: CpuProfile = {
      nodes: [
        { ...frame(1, '(root)', ''), children: [2] },
        { ...frame(2, 'generatePreKeys', 'file:///repo/node_modules/@whiskeysockets/baileys/lib/k.js'), children: [3] },
        { ...frame(3, 'generateKeyPairSync', 'node:internal/crypto/keygen'), children: [4] },
        frame(4, 'hash', ''),
      ],
      startTime: 0,
      samples: [3, 4, 2],
      timeDeltas: [10_000, 5_000, 1_000],
    }
    const s = summariseProfiles([p], { root })
    expect(s.byPackage.map(x => x.name)).toEqual(['node (built-in)', '(native)', '@whiskeysockets/baileys'])
    expect(s.byCaller.map(x => [x.name, x.ms])).toEqual([['@whiskeysockets/baileys', 16]])
  })

  it('tells node built-ins, native frames and project folders apart', () => {
    expect(packageOf('node:internal/streams/readable', 'read', root)).toBe('node (built-in)')
    expect(packageOf('', 'hash', root)).toBe('(native)')
    expect(packageOf('file:///repo/src/main.ts', 'x', root)).toBe('src/main.ts')
    expect(packageOf('file:///repo/node_modules/a/node_modules/b/i.js', 'x', root)).toBe('b')
  })

  it('reads every .cpuprofile in a folder', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cpuprof-test-'))
    try {
      writeFileSync(path.join(dir, 'CPU.1.0.cpuprofile'), JSON.stringify(main))
      writeFileSync(path.join(dir, 'CPU.1.1.cpuprofile'), JSON.stringify(worker))
      writeFileSync(path.join(dir, 'notes.txt'), 'not a profile')
      expect(readProfiles(dir)).toHaveLength(2)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
