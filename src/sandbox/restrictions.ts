/**
 * @module sandbox/restrictions
 * The platform's account restrictions, simulated: a reach-out timelock (the account may not start new chats until a
 * time, or until lifted) and a new-chat cap (a quota of new chats per cycle, with two warnings before `CAPPED`).
 * The control API sets them (`POST /accounts/{phone}/restrictions`); the sandbox then does what the platform does:
 *   - tells the account's connected companions with a `<notification type="mex">` whose `<update op_name=…>` carries
 *     the GraphQL payload (Baileys: `connection.update { reachoutTimeLock }`, `message-capping.update`);
 *   - answers the companions' `w:mex` queries for both (Baileys' `fetchAccountReachoutTimelock()`,
 *     `fetchNewChatMessageCap()`);
 *   - while the timelock is active or the cap is `CAPPED`, refuses a 1:1 message from the account to anyone it has
 *     never exchanged a message with, with error 463 (an ack with `error="463"`), counting each refusal.
 *
 * Who has exchanged a message with whom is learned from the 1:1 messages the sandbox routes (either way), from
 * messages its simulated phones send (`POST /accounts/{phone}/send`), and from the world's `chats` of an account
 * (the chats it had before pairing, which the history sync lists).
 */
import { randomBytes } from 'node:crypto'
import type { BinaryNode } from '@whiskeysockets/baileys'
import { type AccountRegistry, deliverToCompanion } from './accounts.js'
import { child, iqResult, node, S_WHATSAPP_NET, unixNow } from './nodes.js'

/** Baileys 7 rc14's query ids (`Types/Mex.js`): the account's timelock, and its new-chat cap. */
export const TIMELOCK_QUERY_ID = '23983697327930364'
export const CAP_QUERY_ID = '24503548349331633'
const TIMELOCK_OP = 'NotificationUserReachoutTimelockUpdate'
const CAP_OP = 'MessageCappingInfoNotification'

export const CAP_STATUSES = ['NONE', 'FIRST_WARNING', 'SECOND_WARNING', 'CAPPED'] as const
export type CapStatus = (typeof CAP_STATUSES)[number]

export interface Timelock {
  active: boolean
  /** Epoch ms when it ends; absent: no end given. */
  until?: number
  enforcementType?: string
}

export interface NewChatCap {
  status: CapStatus
  used: number
  total: number
  /** Epoch ms when the cycle ends; absent: not given. */
  cycleEndsAt?: number
}

interface AccountState {
  timelock: Timelock
  cap: NewChatCap
  refusedNewChats: number
}

/** A bad control request, with the words the control API answers with. */
export class RestrictionInputError extends Error {}

const seconds = (ms: number): string => String(Math.floor(ms / 1000))
const iso = (ms: number | undefined): string | null => (ms === undefined ? null : new Date(ms).toISOString())

function parseTime(value: unknown, field: string): number | undefined {
  if (value === undefined || value === null) return undefined
  const ms = typeof value === 'string' ? Date.parse(value) : Number.NaN
  if (Number.isNaN(ms)) throw new RestrictionInputError(`${field} must be an ISO-8601 time`)
  return ms
}

function parseCount(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0)
    throw new RestrictionInputError(`${field} must be a whole number >= 0`)
  return value
}

function parseTimelock(raw: unknown): Timelock {
  const body = (raw ?? {}) as Record<string, unknown>
  if (typeof body.active !== 'boolean') throw new RestrictionInputError('reachoutTimelock.active must be a boolean')
  if (!body.active) return { active: false }
  const until = parseTime(body.until, 'reachoutTimelock.until')
  const type = body.enforcementType
  if (type !== undefined && typeof type !== 'string')
    throw new RestrictionInputError('reachoutTimelock.enforcementType must be a string')
  return { active: true, ...(until === undefined ? {} : { until }), ...(type ? { enforcementType: type } : {}) }
}

function parseCap(raw: unknown): NewChatCap {
  const body = (raw ?? {}) as Record<string, unknown>
  if (!CAP_STATUSES.includes(body.status as CapStatus))
    throw new RestrictionInputError(`newChatCap.status must be one of ${CAP_STATUSES.join(', ')}`)
  const cycleEndsAt = parseTime(body.cycleEndsAt, 'newChatCap.cycleEndsAt')
  return {
    status: body.status as CapStatus,
    used: parseCount(body.used, 'newChatCap.used'),
    total: parseCount(body.total, 'newChatCap.total'),
    ...(cycleEndsAt === undefined ? {} : { cycleEndsAt }),
  }
}

export class AccountRestrictions {
  readonly #byPhone = new Map<string, AccountState>()
  /** phone → the phones it has exchanged a 1:1 message with. */
  readonly #peers = new Map<string, Set<string>>()
  /** The chats the world says an account had before any client paired (WorldAccount.chats). */
  readonly #chatsBefore: (phone: string) => readonly string[]

  constructor(chatsBefore: (phone: string) => readonly string[] = () => []) {
    this.#chatsBefore = chatsBefore
  }

  #state(phone: string): AccountState {
    let state = this.#byPhone.get(phone)
    if (!state)
      this.#byPhone.set(
        phone,
        (state = { timelock: { active: false }, cap: { status: 'NONE', used: 0, total: 0 }, refusedNewChats: 0 }),
      )
    return state
  }

  /** A 1:1 message went between `a` and `b`: from now on neither is a new chat for the other. */
  noteExchange(a: string, b: string): void {
    if (a === b) return
    for (const [from, to] of [
      [a, b],
      [b, a],
    ] as const) {
      let peers = this.#peers.get(from)
      if (!peers) this.#peers.set(from, (peers = new Set()))
      peers.add(to)
    }
  }

  /** Whether the account may start no new chat now (timelock in force, or cap reached in the current cycle). */
  #restricted(phone: string): boolean {
    const state = this.#byPhone.get(phone)
    if (!state) return false
    const now = Date.now()
    const { timelock, cap } = state
    const locked = timelock.active && (timelock.until === undefined || timelock.until > now)
    const capped = cap.status === 'CAPPED' && (cap.cycleEndsAt === undefined || cap.cycleEndsAt > now)
    return locked || capped
  }

  /** Whether the platform refuses a 1:1 message from `sender` to `recipient` (error 463); a refusal is counted. */
  refusesNewChat(sender: string, recipient: string): boolean {
    if (sender === recipient || !this.#restricted(sender) || this.#peers.get(sender)?.has(recipient)) return false
    if (this.#chatsBefore(sender).includes(recipient)) return false
    this.#state(sender).refusedNewChats++
    return true
  }

  /** What GET /accounts/{phone}/restrictions answers. */
  view(phone: string): Record<string, unknown> {
    const { timelock, cap, refusedNewChats } = this.#state(phone)
    return {
      reachoutTimelock: {
        active: timelock.active,
        until: iso(timelock.until),
        enforcementType: timelock.enforcementType ?? null,
      },
      newChatCap: { status: cap.status, used: cap.used, total: cap.total, cycleEndsAt: iso(cap.cycleEndsAt) },
      refusedNewChats,
    }
  }

  /**
   * POST /accounts/{phone}/restrictions: sets either or both, and notifies the account's companions of what was
   * set (unless `notify: false`: a client then learns of it only by asking, e.g. after a 463). Throws
   * RestrictionInputError on a malformed body (nothing changes then).
   */
  set(accounts: AccountRegistry, phone: string, body: unknown): void {
    const patch = (body ?? {}) as { reachoutTimelock?: unknown; newChatCap?: unknown; notify?: unknown }
    const tell = patch.notify !== false
    if (patch.reachoutTimelock === undefined && patch.newChatCap === undefined)
      throw new RestrictionInputError('body needs reachoutTimelock and/or newChatCap')
    const timelock = patch.reachoutTimelock === undefined ? undefined : parseTimelock(patch.reachoutTimelock)
    const cap = patch.newChatCap === undefined ? undefined : parseCap(patch.newChatCap)
    const state = this.#state(phone)
    if (timelock) {
      state.timelock = timelock
      if (tell) notify(accounts, phone, TIMELOCK_OP, { xwa2_notify_account_reachout_timelock: timelockJson(timelock) })
    }
    if (cap) {
      state.cap = cap
      if (tell) notify(accounts, phone, CAP_OP, { xwa2_notify_new_chat_messages_capping_info_update: capJson(cap) })
    }
  }

  /** The `w:mex` answer to a timelock or cap query, or undefined for any other query. */
  answerQuery(phone: string | undefined, iq: BinaryNode): BinaryNode | undefined {
    const query = child(iq, 'query')
    const queryId = query?.attrs.query_id
    if (queryId !== TIMELOCK_QUERY_ID && queryId !== CAP_QUERY_ID) return undefined
    const state = phone ? this.#state(phone) : undefined
    const now = Date.now()
    // a restriction whose end has passed is over, whether or not anyone said so
    const lock = state?.timelock.until !== undefined && state.timelock.until <= now ? undefined : state?.timelock
    const cap = state?.cap.cycleEndsAt !== undefined && state.cap.cycleEndsAt <= now ? undefined : state?.cap
    const data =
      queryId === TIMELOCK_QUERY_ID
        ? { xwa2_fetch_account_reachout_timelock: timelockJson(lock ?? { active: false }) }
        : { xwa2_message_capping_info: capJson(cap ?? { status: 'NONE', used: 0, total: 0 }) }
    return iqResult(iq, [node('result', {}, JSON.stringify({ data }))])
  }
}

function timelockJson(timelock: Timelock): Record<string, unknown> {
  return {
    is_active: timelock.active,
    // absent when no end is given: Baileys reads '0' in a notification as 1970 (and then shows the epoch)
    ...(timelock.until === undefined ? {} : { time_enforcement_ends: seconds(timelock.until) }),
    enforcement_type: timelock.active ? (timelock.enforcementType ?? 'DEFAULT') : 'DEFAULT',
  }
}

function capJson(cap: NewChatCap): Record<string, unknown> {
  return {
    total_quota: cap.total,
    used_quota: cap.used,
    capping_status: cap.status,
    ...(cap.cycleEndsAt === undefined ? {} : { cycle_end_timestamp: seconds(cap.cycleEndsAt) }),
    server_sent_timestamp: unixNow(),
  }
}

/** A `<notification type="mex">` to every companion of `phone` (offline ones get it at their next login). */
function notify(accounts: AccountRegistry, phone: string, opName: string, data: Record<string, unknown>): void {
  for (const companion of accounts.get(phone)?.companions.values() ?? []) {
    const id = randomBytes(8).toString('hex').toUpperCase()
    deliverToCompanion(
      companion,
      node('notification', { from: S_WHATSAPP_NET, type: 'mex', id, t: unixNow() }, [
        node('update', { op_name: opName }, JSON.stringify({ data })),
      ]),
    )
  }
}
