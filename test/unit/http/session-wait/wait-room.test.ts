/**
 * The wait room: its three bounds (per session with the view links apart, per client, per process), each a 429 in
 * the spec's shape with Retry-After that names the bound; wake-ups by session, by its own timer, at shutdown; and a
 * slot freed at once when a waiter leaves, however often it leaves.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { GatewayError } from '../../../../src/protocol/errors.js'
import { WaitRoom, type WakeReason, type WaitTicket } from '../../../../src/http/session-wait/wait-room.js'

const LIMITS = { perSession: 2, perClient: 3, perProcess: 5 }

function ticket(patch: Partial<WaitTicket> = {}): WaitTicket {
  return { session: 's1', budget: 'api', client: '192.0.2.1', ms: 30_000, ...patch }
}

/** What a room refuses with, or undefined when it lets the ticket in. */
function refusal(room: WaitRoom, t: WaitTicket): { status: number; message: string; retry?: number } | undefined {
  try {
    room.enter(t, () => {})
    return undefined
  } catch (err) {
    const e = err as GatewayError
    return { status: e.status, message: e.message, ...(e.retryAfterSeconds ? { retry: e.retryAfterSeconds } : {}) }
  }
}

describe('WaitRoom bounds', () => {
  it("per session: the session's own client and its view links count apart", () => {
    const room = new WaitRoom(LIMITS)
    room.enter(ticket(), () => {})
    room.enter(ticket({ client: '192.0.2.2' }), () => {})
    // a third wait on s1 from anyone is refused, naming the bound and when to retry
    expect(refusal(room, ticket({ client: '192.0.2.3' }))).toEqual({
      status: 429,
      message: 'too many waiting requests for this session (2), retry in 2 s',
      retry: 2,
    })
    // the view link's holder has its own budget on s1, and another session is untouched
    expect(refusal(room, ticket({ budget: 'view', client: '192.0.2.3' }))).toBeUndefined()
    expect(refusal(room, ticket({ session: 's2', client: '192.0.2.4' }))).toBeUndefined()
  })

  it('per client: one client cannot hold more, whatever sessions it waits on; another client still gets in', () => {
    const room = new WaitRoom(LIMITS)
    for (const session of ['a', 'b', 'c']) room.enter(ticket({ session }), () => {})
    expect(refusal(room, ticket({ session: 'd' }))).toEqual({
      status: 429,
      message: 'too many waiting requests from this client (3), retry in 2 s',
      retry: 2,
    })
    expect(refusal(room, ticket({ session: 'd', client: '192.0.2.9' }))).toBeUndefined()
  })

  it('per process: all waits together', () => {
    const room = new WaitRoom(LIMITS)
    for (let i = 0; i < 5; i++) room.enter(ticket({ session: `s${i}`, client: `c${i}` }), () => {})
    expect(room.size).toBe(5)
    expect(refusal(room, ticket({ session: 'x', client: 'y' }))).toEqual({
      status: 429,
      message: 'too many waiting requests on this server, retry in 2 s',
      retry: 2,
    })
  })

  it('a waiter that leaves frees its slot at once, and leaving twice frees it once', () => {
    const room = new WaitRoom(LIMITS)
    const first = room.enter(ticket(), () => {})
    room.enter(ticket(), () => {})
    expect(refusal(room, ticket())?.status).toBe(429)
    first.leave()
    first.leave()
    expect(room.size).toBe(1)
    expect(refusal(room, ticket())).toBeUndefined()
    expect(refusal(room, ticket())?.status).toBe(429)
  })
})

describe('WaitRoom wake-ups', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it("wakes a session's waiters on its changes only, until they leave", () => {
    const room = new WaitRoom(LIMITS)
    const heard: string[] = []
    const a = room.enter(ticket(), reason => heard.push(`a ${reason}`))
    room.enter(ticket({ session: 's2' }), reason => heard.push(`b ${reason}`))
    room.wake({ type: 'changed', id: 's1' })
    room.wake({ type: 'changed', id: 's1' }) // still waiting: a change that changed nothing for it
    room.wake({ type: 'moved', id: 's2' })
    a.leave()
    room.wake({ type: 'changed', id: 's1' })
    expect(heard).toEqual(['a changed', 'a changed', 'b moved'])
  })

  it('ends a wait with its own timer, and not before', () => {
    const room = new WaitRoom(LIMITS)
    const heard: WakeReason[] = []
    room.enter(ticket({ ms: 5_000 }), reason => heard.push(reason))
    vi.advanceTimersByTime(4_999)
    expect(heard).toEqual([])
    vi.advanceTimersByTime(1)
    expect(heard).toEqual(['timeout'])
  })

  it('a waiter that left is not timed out', () => {
    const room = new WaitRoom(LIMITS)
    const heard: WakeReason[] = []
    room.enter(ticket({ ms: 1_000 }), reason => heard.push(reason)).leave()
    vi.advanceTimersByTime(2_000)
    expect(heard).toEqual([])
    expect(vi.getTimerCount()).toBe(0)
  })

  it('shutdown wakes every waiter and closes the room', () => {
    const room = new WaitRoom(LIMITS)
    const heard: string[] = []
    for (const session of ['a', 'b']) {
      const waiter = room.enter(ticket({ session }), reason => {
        heard.push(`${session} ${reason}`)
        waiter.leave()
      })
    }
    expect(room.closed).toBe(false)
    room.wake({ type: 'closing' })
    expect(heard).toEqual(['a closing', 'b closing'])
    expect(room.closed).toBe(true)
    expect(room.size).toBe(0)
  })
})
