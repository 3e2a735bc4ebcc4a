/**
 * @module platform/baileys/mapping/restrictions
 * Baileys' views of the account's restrictions → the gateway's (protocol/restrictions.ts): the reach-out timelock
 * of `connection.update { reachoutTimeLock }` (Baileys emits it for the platform's notification and for its own
 * `fetchAccountReachoutTimelock()`), and the new-chat cap of `message-capping.update` and
 * `fetchNewChatMessageCap()` (the platform's GraphQL object, passed on raw).
 */
import type { NewChatMessageCapInfo, ReachoutTimelockState } from '@whiskeysockets/baileys'
import {
  CAP_STATUSES,
  NO_TIMELOCK,
  type CapStatus,
  type NewChatCap,
  type ReachoutTimelock,
} from '../../../protocol/restrictions.js'

/** Baileys' word for "no enforcement". */
const DEFAULT_ENFORCEMENT = 'DEFAULT'

const isoOf = (date: Date | undefined): string | null =>
  date instanceof Date && !Number.isNaN(date.getTime()) ? date.toISOString() : null

/** Seconds since the epoch as the platform writes them (a string of digits; '0' or absent: none). */
function isoOfSeconds(value: unknown): string | null {
  const seconds = typeof value === 'string' || typeof value === 'number' ? Number(value) : Number.NaN
  return Number.isFinite(seconds) && seconds > 0 ? new Date(seconds * 1000).toISOString() : null
}

const countOf = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null

export function timelockOf(state: ReachoutTimelockState): ReachoutTimelock {
  if (!state.isActive) return NO_TIMELOCK
  const type = state.enforcementType
  return {
    active: true,
    until: isoOf(state.timeEnforcementEnds),
    enforcementType: type && type !== DEFAULT_ENFORCEMENT ? String(type) : null,
  }
}

export function capOf(info: NewChatMessageCapInfo | undefined): NewChatCap {
  const status = CAP_STATUSES.includes(info?.capping_status as CapStatus) ? (info?.capping_status as CapStatus) : 'NONE'
  return {
    status,
    used: countOf(info?.used_quota),
    total: countOf(info?.total_quota),
    cycleEndsAt: isoOfSeconds(info?.cycle_end_timestamp),
  }
}
