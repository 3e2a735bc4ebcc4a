/**
 * @module platform/baileys/patches/signal-recovery/run-guard
 * The Baileys adapter's `RunGuard` (platform/link.ts): the run marker tells an unclean stop, and while the session
 * recovers from one its links get the guarded key store (guarded-keys.ts says why).
 */
import type { Logger } from 'pino'
import type { RunGuard } from '../../../link.js'
import type { AuthStore } from '../../../../storage/types.js'
import { guardedKeys } from './guarded-keys.js'
import { RunMarker } from './run-marker.js'

export function createRunGuard(auth: AuthStore, log: Logger): RunGuard {
  const marker = new RunMarker(auth)
  return {
    async authForLink() {
      const { recovery, crashed } = await marker.prepare()
      if (crashed)
        log.warn('the previous run ended uncleanly: Signal sessions from before it are renewed as they are used')
      if (!recovery) return auth
      return { ...auth, keys: guardedKeys(auth, { state: recovery, save: s => marker.saveRecovery(s), log }) }
    },
    release: () => marker.release(),
  }
}
