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

installSourcePatches([timeoutHelpersPatch, messageIdPatch])
const adapter = await import('./baileys-link.js')

export const { createBaileysLink, fetchSandboxTrust, createRunGuard } = adapter

/** The adapter's patches, and a warning for each Baileys source the hook did not patch (another Baileys version). */
export function installPatches(logger: Logger): void {
  adapter.installPatches(logger)
  for (const [patch, state] of Object.entries(patchState())) {
    if (state !== 'patched')
      logger.warn({ patch, state }, 'a Baileys source patch did not apply: it costs CPU per message, nothing else')
  }
}

export default adapter.default
