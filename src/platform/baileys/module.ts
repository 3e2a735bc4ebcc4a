/**
 * @module platform/baileys/module
 * What a shard worker loads by path (a `PlatformModule`, platform/link.ts): first every patch of the inventory
 * (patches/inventory.ts: the load hook that rewrites a few Baileys sources as they load, and the runtime patches),
 * then the adapter (baileys-link.ts), re-exported. The adapter is imported dynamically on purpose: a static import
 * would load Baileys before the hook is in place.
 */
import type { Logger } from 'pino'
import { installPlatformPatches, patchReport } from './patches/inventory.js'

// Small Buffers (Buffer.from, concat, allocUnsafe under half the pool) are cut from a shared pool slab, and a slab
// stays allocated while any Buffer cut from it lives. Node 24's slab is 64 KB (Node 20's 8 KB), and every session
// keeps a few small Buffers for its lifetime (its keys, the noise handshake's), each cut while pairing or connecting
// left a mostly-garbage slab behind: a heap snapshot of a shard with 114 idle sessions held 90 such 64 KB slabs,
// ~50 KB a session (measured). 8 KB slabs cost a new slab 8 times as often, one allocation per 8 KB of small Buffers.
Buffer.poolSize = 8 * 1024
installPlatformPatches()
const adapter = await import('./baileys-link.js')

export const { createBaileysLink, fetchSandboxTrust, createSessionRun } = adapter

/** The adapter's own patch (it needs the logger); then one line naming every patch and whether it is active, and a
 * warning for each that is not (another version of its package, or a source text it did not expect). */
export function installPatches(logger: Logger): void {
  adapter.installPatches(logger)
  const report = patchReport()
  logger.info({ patches: report.map(r => `${r.patch} (${r.target} ${r.writtenFor}): ${r.status}`) }, 'platform patches')
  for (const line of report) {
    if (line.status === 'other version installed' || line.status === 'unexpected source')
      logger.warn(line, 'a platform patch is not active: see patches/inventory.ts for what it was for')
  }
}

export default adapter.default
