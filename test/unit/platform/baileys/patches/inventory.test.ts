/**
 * The patch inventory (src/platform/baileys/patches/inventory.ts, its list in patch-list.ts): every patch names the package version it was
 * written and tested for, and that is the version installed here (bumping Baileys or libsignal fails this test
 * until each patch has been checked against the new version); a shard thread installs them all before Baileys loads
 * and reports each as active; a patch written for another version is left out and reported so, whether the inventory
 * installs it or its caller does (per socket, per link).
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { installedVersion } from '../../../../../src/platform/baileys/patches/inventory.js'
import { CALLER_PATCHES, PLATFORM_PATCHES } from '../../../../../src/platform/baileys/patches/patch-list.js'
import { inFreshProcess } from '../../../../support/fresh-process.js'

describe('platform patch inventory', () => {
  it.each(PLATFORM_PATCHES.map(p => [p.name, p] as const))('%s is written for the installed version', (_, patch) => {
    expect(installedVersion(patch.target)).toBe(patch.writtenFor)
    expect(patch.gain.length).toBeGreaterThan(0)
    // each is installed somewhere: by the inventory (a source rewrite or a runtime install) or by a named module
    expect(Number(!!patch.source) + Number(!!patch.install) + Number(!!patch.installedBy)).toBe(1)
  })

  it("a shard thread's module installs every patch before Baileys loads, and reports each as active", () => {
    const r = inFreshProcess(`
const mod = await import('./src/platform/baileys/module.ts')
const { patchReport } = await import('./src/platform/baileys/patches/inventory.ts')
console.log(JSON.stringify({ factory: typeof mod.createBaileysLink, report: patchReport() }))
`) as { factory: string; report: { patch: string; status: string }[] }
    expect(r.factory).toBe('function')
    const status = Object.fromEntries(r.report.map(l => [l.patch, l.status]))
    for (const p of PLATFORM_PATCHES)
      expect(status[p.name], p.name).toBe(p.installedBy ? 'installed by its caller' : 'active')
  })

  it('leaves out a patch written for another version of its package, and says so', () => {
    const r = inFreshProcess(`
const { installPlatformPatches, patchReport } = await import('./src/platform/baileys/patches/inventory.ts')
let ran = 0
const patches = [{ name: 'stale', target: 'libsignal', writtenFor: '0.0.1', why: 'correctness', gain: 'none', install: () => ran++ }]
installPlatformPatches(patches)
console.log(JSON.stringify({ ran, report: patchReport(patches) }))
`) as { ran: number; report: { patch: string; status: string; installed: string }[] }
    expect(r.ran).toBe(0)
    expect(r.report).toEqual([
      expect.objectContaining({ patch: 'stale', status: 'other version installed', installed: '6.0.0' }),
    ])
  })

  it('a patch its caller installs is skipped for another version of its package, and reported so', () => {
    const r = inFreshProcess(`
const { patchApplies, patchReport } = await import('./src/platform/baileys/patches/inventory.ts')
const patches = [
  { name: 'libsignal console', target: 'libsignal', writtenFor: '0.0.1', why: 'security', gain: 'none', installedBy: { module: 'module.ts', how: '' } },
  { name: 'lazy socket caches', target: '@whiskeysockets/baileys', writtenFor: '0.0.1', why: 'memory', gain: 'none', installedBy: { module: 'link/socket-config.ts', how: '' } },
]
const applies = patches.map(p => patchApplies(p.name, patches))
console.log(JSON.stringify({ applies, report: patchReport(patches).map(l => l.status) }))
`) as { applies: boolean[]; report: string[] }
    expect(r).toEqual({ applies: [false, false], report: ['other version installed', 'other version installed'] })
  })

  it.each(PLATFORM_PATCHES.filter(p => p.installedBy).map(p => [p.name, p] as const))(
    '%s: its installer asks the inventory for the installed version first',
    (name, patch) => {
      // a caller that applied it without asking would apply it to any version of its package
      expect(CALLER_PATCHES).toContain(name)
      const installer = readFileSync(`src/platform/baileys/${patch.installedBy!.module}`, 'utf8')
      expect(installer).toContain(`patchApplies('${name}')`)
    },
  )

  it('every name a caller may ask about is a patch of the inventory that its caller installs', () => {
    const byCallers = PLATFORM_PATCHES.filter(p => p.installedBy).map(p => p.name)
    expect([...CALLER_PATCHES].sort()).toEqual(byCallers.sort())
  })
})
