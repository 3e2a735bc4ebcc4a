/**
 * @module platform/baileys/module
 * What a shard worker loads by path (a `PlatformModule`, platform/link.ts): first the load hook that rewrites a few
 * Baileys sources as they load (patches/source-hook.ts, with the patches of patches/timeout-helpers.ts and
 * patches/message-id.ts), then the adapter (baileys-link.ts), re-exported. The adapter is imported dynamically on
 * purpose: a static import would load Baileys before the hook is in place.
 */
import type { Logger } from 'pino'
import { messageIdPatch } from './patches/message-id.js'
import { installSourcePatches, patchState } from './patches/source-hook.js'
import { timeoutHelpersPatch } from './patches/timeout-helpers.js'

// Small Buffers (Buffer.from, concat, allocUnsafe under half the pool) are cut from a shared pool slab, and a slab
// stays allocated while any Buffer cut from it lives. Node 24's slab is 64 KB (Node 20's 8 KB), and every session
// keeps a few small Buffers for its lifetime (its keys, the noise handshake's), each cut while pairing or connecting
// left a mostly-garbage slab behind: a heap snapshot of a shard with 114 idle sessions held 90 such 64 KB slabs,
// ~50 KB a session (issue 19). 8 KB slabs cost a new slab 8 times as often, one allocation per 8 KB of small Buffers.
Buffer.poolSize = 8 * 1024
installSourcePatches([timeoutHelpersPatch, messageIdPatch])
const adapter = await import('./baileys-link.js')

export const { createBaileysLink, fetchSandboxTrust, createSessionRun } = adapter

/** The adapter's patches, and a warning for each Baileys source the hook did not patch (another Baileys version). */
export function installPatches(logger: Logger): void {
  adapter.installPatches(logger)
  for (const [patch, state] of Object.entries(patchState())) {
    if (state !== 'patched')
      logger.warn({ patch, state }, 'a Baileys source patch did not apply: it costs CPU per message, nothing else')
  }
}

export default adapter.default
