/**
 * @module platform/baileys/module
 * What a shard worker loads by path (a `PlatformModule`, platform/link.ts): first every patch of the inventory
 * (patches/inventory.ts: the load hook that rewrites a few Baileys sources as they load, and the runtime patches),
 * then the adapter (baileys-link.ts), re-exported. The adapter is imported dynamically on purpose: a static import
 * would load Baileys before the hook is in place.
 */
import type { Logger } from 'pino'
import { installPlatformPatches, patchApplies, patchReport } from './patches/inventory.js'

installPlatformPatches()
const adapter = await import('./baileys-link.js')

export const { createBaileysLink, fetchSandboxTrust, createSessionRun, lookupClientVersion, closeThread } = adapter

/** The adapter's own patch (it needs the logger; skipped, as the others, for another libsignal); then one line naming every patch and whether it is active, and a
 * warning for each that is not (another version of its package, or a source text it did not expect). */
export function installPatches(logger: Logger): void {
  if (patchApplies('libsignal console')) adapter.installPatches(logger)
  const report = patchReport()
  logger.info({ patches: report.map(r => `${r.patch} (${r.target} ${r.writtenFor}): ${r.status}`) }, 'platform patches')
  for (const line of report) {
    if (line.status === 'other version installed' || line.status === 'unexpected source')
      logger.warn(line, 'a platform patch is not active: see patches/patch-list.ts for what it was for')
  }
}

export default adapter.default
