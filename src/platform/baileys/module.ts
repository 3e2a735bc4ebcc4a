/**
 * @module platform/baileys/module
 * What a shard worker loads by path (a `PlatformModule`, platform/link.ts): first the load hook that patches a
 * Baileys source as it loads (patches/timeout-stacks.ts), then the adapter (baileys-link.ts), re-exported. The
 * adapter is imported dynamically on purpose: a static import would load Baileys before the hook is in place.
 */
import type { Logger } from 'pino'
import { installTimeoutStacks, patchedSources } from './patches/timeout-stacks.js'

// Small Buffers (Buffer.from, concat, allocUnsafe under half the pool) are cut from a shared pool slab, and a slab
// stays allocated while any Buffer cut from it lives. Node 24's slab is 64 KB (Node 20's 8 KB), and every session
// keeps a few small Buffers for its lifetime (its keys, the noise handshake's), each cut while pairing or connecting
// left a mostly-garbage slab behind: a heap snapshot of a shard with 114 idle sessions held 90 such 64 KB slabs,
// ~50 KB a session (issue 19). 8 KB slabs cost a new slab 8 times as often, one allocation per 8 KB of small Buffers.
Buffer.poolSize = 8 * 1024
installTimeoutStacks()
const adapter = await import('./baileys-link.js')

export const { createBaileysLink, fetchSandboxTrust, createRunGuard } = adapter

/** The adapter's patches, and a warning when the Baileys source patch did not apply (another Baileys version). */
export function installPatches(logger: Logger): void {
  adapter.installPatches(logger)
  const { generics } = patchedSources()
  if (generics !== 'patched')
    logger.warn({ generics }, "Baileys' time-out helpers not patched: each frame sent keeps its stack as text")
}

export default adapter.default
