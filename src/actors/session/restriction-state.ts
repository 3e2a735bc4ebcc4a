/**
 * @module actors/session/restriction-state
 * The account's restrictions as the platform last told them (protocol/restrictions.ts): merged from the link's
 * updates, shown in GET /session once known, read by the brake on new chats. A change of state (a timelock set,
 * moved or lifted; the cap's status, quota or cycle) is one `warn` line naming the session; the count of new
 * chats used in the cycle changing alone is not a change of state (debug).
 */
import type { Logger } from 'pino'
import {
  NO_RESTRICTIONS,
  restrictionKinds,
  type AccountRestrictions,
  type NewChatCap,
  type RestrictionUpdate,
} from '../../protocol/restrictions.js'

/** The cap without its running count: what makes a change of state (none while it is not in force). */
const capState = ({ used: _used, ...state }: NewChatCap): string =>
  state.status === 'NONE' ? 'NONE' : JSON.stringify(state)

/**
 * The timelock as a state: an inactive one is the same state whatever else it carries, so the second of the two
 * reads at connect (each query answers one kind) is no change for an account that is not restricted.
 */
const lockState = (lock: AccountRestrictions['reachoutTimelock']): string =>
  lock.active ? JSON.stringify(lock) : 'inactive'

export class RestrictionState {
  #current: AccountRestrictions = NO_RESTRICTIONS
  #known = false
  readonly #log: Logger

  constructor(log: Logger) {
    this.#log = log
  }

  /** The restrictions last read; NO_RESTRICTIONS before the platform said anything. */
  get current(): AccountRestrictions {
    return this.#current
  }

  /** Null until the platform first told them (GET /session shows them from then on). */
  get shown(): AccountRestrictions | null {
    return this.#known ? this.#current : null
  }

  /** Merges an update; true when anything GET /session shows changed. */
  apply(update: RestrictionUpdate): boolean {
    const before = this.#current
    const after: AccountRestrictions = {
      reachoutTimelock: update.reachoutTimelock ?? before.reachoutTimelock,
      newChatCap: update.newChatCap ?? before.newChatCap,
    }
    const firstRead = !this.#known
    this.#known = true
    if (!firstRead && JSON.stringify(after) === JSON.stringify(before)) return false
    this.#current = after
    const lockChanged = lockState(after.reachoutTimelock) !== lockState(before.reachoutTimelock)
    const capChanged = capState(after.newChatCap) !== capState(before.newChatCap)
    // the first read of an unrestricted account is no change of state (every session reads it at connect)
    const stateChanged = firstRead ? restrictionKinds(after).length > 0 : lockChanged || capChanged
    if (stateChanged) this.#log.warn({ restrictions: after }, describe(after))
    else this.#log.debug({ restrictions: after }, 'account restrictions read')
    return true
  }

  /** Forgets them (the device was unlinked: the next pairing may be another account). */
  reset(): void {
    this.#current = NO_RESTRICTIONS
    this.#known = false
  }
}

/** The warn line's message: what the platform restricts now, in words. */
function describe({ reachoutTimelock: lock, newChatCap: cap }: AccountRestrictions): string {
  const parts: string[] = []
  if (lock.active)
    parts.push(
      `reach-out timelock${lock.enforcementType ? ` (${lock.enforcementType})` : ''} until ${lock.until ?? 'no end known'}`,
    )
  if (cap.status !== 'NONE')
    parts.push(
      `new chat cap ${cap.status} (${cap.used ?? '?'} of ${cap.total ?? '?'} used, cycle ends ${cap.cycleEndsAt ?? 'unknown'})`,
    )
  return parts.length ? `account restricted by the platform: ${parts.join('; ')}` : 'account restrictions lifted'
}
