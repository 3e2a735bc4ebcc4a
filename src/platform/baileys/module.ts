/**
 * @module platform/baileys/module
 * What a shard worker loads by path (a `PlatformModule`, platform/link.ts): first the load hook that patches a
 * Baileys source as it loads (patches/timeout-stacks.ts), then the adapter (baileys-link.ts), re-exported. The
 * adapter is imported dynamically on purpose: a static import would load Baileys before the hook is in place.
 */
import type { Logger } from 'pino'
import { installTimeoutStacks, patchedSources } from './patches/timeout-stacks.js'

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
