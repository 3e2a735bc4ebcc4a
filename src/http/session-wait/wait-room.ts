/**
 * @module http/session-wait/wait-room
 * The requests waiting for a session to change (GET /session and GET /session/qr with `If-None-Match` and `wait`),
 * bounded three ways so that nobody can take the waits of others (429 with Retry-After beyond each):
 *   - per session, the session's own client (`api`) and the holders of its view links (`view`) apart, so a view
 *     link handed to a customer cannot use up the waits of the tenant's backend;
 *   - per client (http/client-key.ts: the address, an IPv6 /64), so one client cannot fill the process;
 *   - per process, what all waits together may hold.
 * A waiter is woken when its session changes, when the session leaves for another node, when the process shuts
 * down, and by its own timer. It holds its socket, one entry here and a timer: no shard queue, no command, no
 * thread (the answers come from the main thread's snapshot cache). Leaving is idempotent and frees the slot at once.
 *
 * @example
 * const waiter = room.enter({ session: id, budget: 'api', client, ms: 30_000 }, reason => answer(reason))
 * res.on('close', () => waiter.leave()) // a client that hangs up frees its slot
 */
import type { SessionChange } from '../../actors/main/session-system.js'
import { GatewayError } from '../../protocol/errors.js'
import { fill, MESSAGE_TEMPLATE } from '../../protocol/messages.js'

/** Why a waiter is woken: its session changed (or is gone), moved to another node, shutdown, or its time is up. */
export type WakeReason = 'changed' | 'moved' | 'closing' | 'timeout'

export interface WaitLimits {
  /** Waits per session and budget (SESSION_WAITS_PER_SESSION). */
  perSession: number
  /** Waits per client (SESSION_WAITS_PER_CLIENT). */
  perClient: number
  /** Waits in the process (SESSION_WAITS_PER_PROCESS). */
  perProcess: number
}

export interface WaitTicket {
  /** The session whose changes wake the waiter. */
  session: string
  /** Whose wait it is: the session's own client (GET /session) or a view link's holder (GET /session/qr). */
  budget: 'api' | 'view'
  /** Who asks (http/client-key.ts). */
  client: string
  /** How long it waits at most. */
  ms: number
}

export interface Waiter {
  /** Frees the slot and stops the timer; the waiter is not woken again. */
  leave(): void
}

/** Retry-After of a 429: the spec's polling interval, which a refused client can fall back to meanwhile. */
export const WAIT_RETRY_AFTER_SECONDS = 2

interface Entry {
  ticket: WaitTicket
  wake: (reason: WakeReason) => void
  timer: NodeJS.Timeout
  left: boolean
}

const budgetKey = (t: WaitTicket): string => `${t.budget} ${t.session}`

const seconds = WAIT_RETRY_AFTER_SECONDS
const tooMany = (message: string): GatewayError => new GatewayError('TOO_MANY_REQUESTS', message, seconds)
/** 429 for a session holding `max` waits (also what a cluster node answers before a wait crosses: cluster/front.ts). */
export const tooManyWaitsForSession = (max: number): GatewayError =>
  tooMany(fill(MESSAGE_TEMPLATE.WAITS_PER_SESSION, { max, seconds }))

function bump(counts: Map<string, number>, key: string, by: number): void {
  const next = (counts.get(key) ?? 0) + by
  if (next === 0) counts.delete(key)
  else counts.set(key, next)
}

export class WaitRoom {
  readonly #limits: WaitLimits
  readonly #bySession = new Map<string, Set<Entry>>()
  readonly #perBudget = new Map<string, number>()
  readonly #perClient = new Map<string, number>()
  #size = 0
  #closed = false

  constructor(limits: WaitLimits) {
    this.#limits = limits
  }

  /** Waiters held. */
  get size(): number {
    return this.#size
  }

  /** Shutdown began: nobody waits any more (a request answers at once). */
  get closed(): boolean {
    return this.#closed
  }

  /** Takes a slot for `ticket`, or throws 429 (the message says which bound); `wake` is called until it leaves. */
  enter(ticket: WaitTicket, wake: (reason: WakeReason) => void): Waiter {
    const { perSession, perClient, perProcess } = this.#limits
    if ((this.#perBudget.get(budgetKey(ticket)) ?? 0) >= perSession) throw tooManyWaitsForSession(perSession)
    if ((this.#perClient.get(ticket.client) ?? 0) >= perClient)
      throw tooMany(fill(MESSAGE_TEMPLATE.WAITS_PER_CLIENT, { max: perClient, seconds }))
    if (this.#size >= perProcess) throw tooMany(fill(MESSAGE_TEMPLATE.WAITS_PER_PROCESS, { seconds }))
    const entry: Entry = { ticket, wake, left: false, timer: setTimeout(() => entry.wake('timeout'), ticket.ms) }
    entry.timer.unref()
    let waiters = this.#bySession.get(ticket.session)
    if (!waiters) this.#bySession.set(ticket.session, (waiters = new Set()))
    waiters.add(entry)
    this.#count(entry, 1)
    return { leave: () => this.#leave(entry) }
  }

  /** A change the session system reports (SessionSystem.watch): wakes the session's waiters, or all at shutdown. */
  wake(change: SessionChange): void {
    if (change.type === 'closing') {
      this.#closed = true
      for (const waiters of [...this.#bySession.values()])
        for (const entry of [...waiters]) if (!entry.left) entry.wake('closing')
      return
    }
    const waiters = this.#bySession.get(change.id)
    if (waiters) for (const entry of [...waiters]) if (!entry.left) entry.wake(change.type)
  }

  #leave(entry: Entry): void {
    if (entry.left) return
    entry.left = true
    clearTimeout(entry.timer)
    const waiters = this.#bySession.get(entry.ticket.session)
    waiters?.delete(entry)
    if (waiters?.size === 0) this.#bySession.delete(entry.ticket.session)
    this.#count(entry, -1)
  }

  #count(entry: Entry, by: number): void {
    bump(this.#perBudget, budgetKey(entry.ticket), by)
    bump(this.#perClient, entry.ticket.client, by)
    this.#size += by
  }
}
