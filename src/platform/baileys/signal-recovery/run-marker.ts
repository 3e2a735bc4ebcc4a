/**
 * @module platform/baileys/signal-recovery/run-marker
 * Tells whether a session's previous run ended uncleanly (process killed, thread crashed, power lost), which makes
 * its stored Signal state suspect (see recovering-keys.ts for why and what is done about it).
 *
 * A `running` row is written before the session's first link opens and removed once the session stopped cleanly.
 * Finding the row at the first open of a new actor means the last run never removed it: the recovery state is
 * then (re)started with `staleBefore` = now and nothing renewed yet. The rows live among the session's Signal
 * keys (type `gateway-run`), so they are sealed with DATA_KEY like the keys and go when the keys are cleared.
 */
import type { AuthStore } from '../../../storage/types.js'

const TYPE = 'gateway-run'
const RUNNING = 'running'
const RECOVERY = 'recovery'

/** What an unclean stop left to renew. */
export interface RecoveryState {
  /** Signal state created before this instant (ms) must not be used to send again. */
  staleBefore: number
  /** Our own group sender keys made anew since (key names), and the groups they belong to. */
  renewedKeys: string[]
  renewedGroups: string[]
}

/** The keys store seen as rows of our own type: values round-trip through the store's JSON codec. */
interface RunRows {
  get(type: typeof TYPE, ids: string[]): Promise<Record<string, unknown>>
  set(data: Record<typeof TYPE, Record<string, unknown>>): Promise<void>
}
const rows = (auth: AuthStore): RunRows => auth.keys as unknown as RunRows

function isRecoveryState(value: unknown): value is RecoveryState {
  const v = value as RecoveryState | undefined
  return typeof v?.staleBefore === 'number' && Array.isArray(v.renewedKeys) && Array.isArray(v.renewedGroups)
}

export class RunMarker {
  readonly #auth: AuthStore
  readonly #now: () => number
  /** Set once this actor wrote the `running` row: finding it later is our own doing, not a crash. */
  #owned = false

  constructor(auth: AuthStore, now: () => number = Date.now) {
    this.#auth = auth
    this.#now = now
  }

  /**
   * Before each link opens: detects an unclean previous run (first call only), makes sure the `running` row
   * exists (a reset or logout clears it with the keys), and returns the recovery state, if any, and whether this
   * call found the unclean stop.
   */
  async prepare(): Promise<{ recovery: RecoveryState | undefined; crashed: boolean }> {
    const found = await rows(this.#auth).get(TYPE, [RUNNING, RECOVERY])
    let recovery = isRecoveryState(found[RECOVERY]) ? found[RECOVERY] : undefined
    const crashed = !this.#owned && found[RUNNING] !== undefined
    if (crashed) recovery = { staleBefore: this.#now(), renewedKeys: [], renewedGroups: [] }
    if (crashed || found[RUNNING] === undefined) {
      await rows(this.#auth).set({ [TYPE]: { [RUNNING]: this.#now(), ...(crashed ? { [RECOVERY]: recovery } : {}) } })
    }
    this.#owned = true
    return { recovery, crashed }
  }

  /** Persists what was renewed so far (called as sender keys are renewed). */
  async saveRecovery(state: RecoveryState): Promise<void> {
    await rows(this.#auth).set({ [TYPE]: { [RECOVERY]: state } })
  }

  /** After a clean stop (every command settled, the link closed): the next start trusts the stored state. */
  async release(): Promise<void> {
    if (!this.#owned) return
    await rows(this.#auth).set({ [TYPE]: { [RUNNING]: null } })
    this.#owned = false
  }
}
