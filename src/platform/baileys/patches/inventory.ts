/**
 * @module platform/baileys/patches/inventory
 * What is done with the list of every patch the gateway makes to Baileys, libsignal or Node's built-ins in a shard
 * thread (./patch-list.ts: what each one changes, the version it was written and tested against, why, and what it
 * measured). One call per thread installs them all (`installPlatformPatches`, before Baileys is first imported),
 * and the shard's start log says which are active (`patchReport`).
 *
 * Why a list: each patch relies on the inside of one package version (a source text, a private method, an internal
 * field). A patch whose package moved to another version is not installed; the start log names it, and
 * `test/unit/platform/baileys/patches/inventory.test.ts` fails until someone has checked the patch against the new
 * version and moved its `writtenFor`. A source rewrite also checks the text it replaces (`source-hook.ts`).
 * Patches their callers install (per socket, per link, with the shard's logger) are in the list too, with who
 * installs them; each caller asks `patchApplies` first, so another version skips them as it skips the others.
 */
import { createRequire } from 'node:module'
import { BAILEYS, type CallerPatch, PLATFORM_PATCHES, type PlatformPatch } from './patch-list.js'
import { installSourcePatches, patchState, type SourcePatch } from './source-hook.js'

export type PatchStatus =
  | 'active'
  | 'not loaded yet'
  | 'unexpected source'
  | 'other version installed'
  | 'installed by its caller'

/** The installed version of `target` (Node: its major), or undefined when it cannot be read. */
export function installedVersion(target: PlatformPatch['target']): string | undefined {
  if (target === 'node') return process.versions.node.split('.')[0]
  try {
    // the copy Baileys loads (libsignal resolves from there)
    const fromBaileys = createRequire(createRequire(import.meta.url).resolve(`${BAILEYS}/package.json`))
    return (fromBaileys(`${target}/package.json`) as { version: string }).version
  } catch {
    return undefined
  }
}

const INSTALLED = Symbol.for('gateway.platform-patches')
const skipped = new Set<string>()

/**
 * Once per thread, before Baileys is first imported (a source patch applies only to a file loaded after it): the
 * source rewrites and the runtime patches whose package is at the version they were written for.
 */
export function installPlatformPatches(patches: readonly PlatformPatch[] = PLATFORM_PATCHES): void {
  const g = globalThis as Record<PropertyKey, unknown>
  if (g[INSTALLED]) return
  g[INSTALLED] = true
  const fits = patches.filter(p => {
    const ok = installedVersion(p.target) === p.writtenFor
    if (!ok) skipped.add(p.name)
    return ok
  })
  installSourcePatches(fits.flatMap(p => sourcesOf(p)))
  for (const p of fits) p.install?.()
}

/**
 * Whether the patch `name` (one installed by its caller, `installedBy`) may be applied here: its package is at the
 * version it was written for. The caller skips it otherwise, and the start log says so (`patchReport`), as for the
 * patches the inventory installs itself.
 */
export function patchApplies(name: CallerPatch, patches: readonly PlatformPatch[] = PLATFORM_PATCHES): boolean {
  const patch = patches.find(p => p.name === name)
  if (patch === undefined) throw new Error(`no platform patch named ${name}`)
  const ok = installedVersion(patch.target) === patch.writtenFor
  if (!ok) skipped.add(patch.name)
  return ok
}

const sourcesOf = (p: PlatformPatch): readonly SourcePatch[] =>
  p.source === undefined ? [] : 'url' in p.source ? [p.source] : p.source

export interface PatchReportLine {
  patch: string
  target: string
  writtenFor: string
  installed: string | undefined
  status: PatchStatus
}

/** Each patch with its status in this thread (the shard logs it once, when it loads the platform client). */
export function patchReport(patches: readonly PlatformPatch[] = PLATFORM_PATCHES): PatchReportLine[] {
  const sources = patchState()
  return patches.map(p => {
    const installed = installedVersion(p.target)
    let status: PatchStatus
    if (skipped.has(p.name) || installed !== p.writtenFor) status = 'other version installed'
    else if (p.installedBy) status = 'installed by its caller'
    else if (p.source) {
      const states = sourcesOf(p).map(s => sources[s.name])
      status = states.every(s => s === 'patched')
        ? 'active'
        : states.includes('unexpected source')
          ? 'unexpected source'
          : 'not loaded yet'
    } else status = (globalThis as Record<PropertyKey, unknown>)[INSTALLED] ? 'active' : 'not loaded yet'
    return { patch: p.name, target: p.target, writtenFor: p.writtenFor, installed, status }
  })
}
