/**
 * @module platform/baileys/signal-recovery/session-run
 * The Baileys adapter's `SessionRun` (platform/link.ts): the run marker tells an unclean stop, and while the session
 * recovers from one its links get the recovering key store (recovering-keys.ts says why).
 */
import type { Logger } from 'pino'
import type { SessionRun } from '../../link.js'
import type { AuthStore } from '../../../storage/types.js'
import { recoveringKeys } from './recovering-keys.js'
import { RunMarker } from './run-marker.js'

export function createSessionRun(auth: AuthStore, log: Logger): SessionRun {
  const marker = new RunMarker(auth)
  return {
    async authForLink() {
      const { recovery, crashed } = await marker.prepare()
      if (crashed)
        log.warn('the previous run ended uncleanly: Signal sessions from before it are renewed as they are used')
      if (!recovery) return auth
      return { ...auth, keys: recoveringKeys(auth, { state: recovery, save: s => marker.saveRecovery(s), log }) }
    },
    release: () => marker.release(),
  }
}
