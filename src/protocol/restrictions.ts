/**
 * @module protocol/restrictions
 * The platform's restrictions on an account, as GET /session shows them (`restrictions`, not in the spec): a
 * reach-out timelock (no new chats until a time, or until lifted) and the new-chat cap (a quota of new chats per
 * cycle, with two warnings before `CAPPED`). Times are ISO-8601; null where the platform gave none.
 *
 * `restrictionInForce` is the brake's question (actors/session/new-chat-brake.ts): is starting a new chat refused
 * now, by what, and until when. It reads the clock, so a restriction whose end has passed stops braking at once,
 * before the platform says it was lifted.
 */

export const CAP_STATUSES = ['NONE', 'FIRST_WARNING', 'SECOND_WARNING', 'CAPPED'] as const
export type CapStatus = (typeof CAP_STATUSES)[number]

export interface ReachoutTimelock {
  active: boolean
  until: string | null
  enforcementType: string | null
}

export interface NewChatCap {
  status: CapStatus
  used: number | null
  total: number | null
  cycleEndsAt: string | null
}

export interface AccountRestrictions {
  reachoutTimelock: ReachoutTimelock
  newChatCap: NewChatCap
}

/** A change the platform reported: either part, or both. */
export type RestrictionUpdate = Partial<AccountRestrictions>

export const NO_TIMELOCK: ReachoutTimelock = { active: false, until: null, enforcementType: null }
export const NO_CAP: NewChatCap = { status: 'NONE', used: null, total: null, cycleEndsAt: null }
export const NO_RESTRICTIONS: AccountRestrictions = { reachoutTimelock: NO_TIMELOCK, newChatCap: NO_CAP }

/** The restriction kinds /metrics counts sessions by. */
export const RESTRICTION_KINDS = ['reachout-timelock', 'new-chat-cap', 'new-chat-cap-warning'] as const
export type RestrictionKind = (typeof RESTRICTION_KINDS)[number]

/** What refuses a new chat now, and until when (epoch ms, or null when no end is known). */
export interface RestrictionInForce {
  what: 'reach-out timelock' | 'new chat cap reached'
  until: number | null
}

const endOf = (iso: string | null): number | null => (iso === null ? null : Date.parse(iso))

/** The restriction that refuses a new chat at `now`, or undefined when a new chat may go. */
export function restrictionInForce(r: AccountRestrictions, now = Date.now()): RestrictionInForce | undefined {
  const lock = r.reachoutTimelock
  if (lock.active) {
    const until = endOf(lock.until)
    if (until === null || until > now) return { what: 'reach-out timelock', until }
  }
  const cap = r.newChatCap
  if (cap.status === 'CAPPED') {
    const until = endOf(cap.cycleEndsAt)
    if (until === null || until > now) return { what: 'new chat cap reached', until }
  }
  return undefined
}

/** The kinds a session counts under in /metrics (none when unrestricted). */
export function restrictionKinds(r: AccountRestrictions, now = Date.now()): RestrictionKind[] {
  const kinds: RestrictionKind[] = []
  const lock = r.reachoutTimelock
  if (lock.active && (lock.until === null || Date.parse(lock.until) > now)) kinds.push('reachout-timelock')
  if (r.newChatCap.status === 'CAPPED') kinds.push('new-chat-cap')
  else if (r.newChatCap.status !== 'NONE') kinds.push('new-chat-cap-warning')
  return kinds
}
