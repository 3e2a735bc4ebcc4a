/**
 * The brake on new chats: a number with a conversation always goes; a new one is refused while the timelock is in
 * force or the cap is CAPPED (429 with the seconds to the end, 403 when no end is known), goes once the end has
 * passed, and goes under a warning; NEW_CHATS_PER_DAY refuses new chats past it until midnight UTC, known numbers
 * still going.
 */
import pino from 'pino'
import { describe, expect, it } from 'vitest'
import { Conversations } from '../../../../src/actors/session/conversations.js'
import { NewChatBrake } from '../../../../src/actors/session/new-chat-brake.js'
import { RestrictionState } from '../../../../src/actors/session/restriction-state.js'
import type { ConversationStore } from '../../../../src/storage/conversations.js'
import type { GatewayError } from '../../../../src/protocol/errors.js'

const memoryStore = (): ConversationStore => ({
  all: async () => [],
  put: async () => undefined,
  remove: async () => undefined,
  clear: async () => undefined,
})

const NOW = Date.parse('2026-12-07T12:00:00.000Z')

function brakeWith(perDay = 0) {
  const log = pino({ level: 'silent' })
  const conversations = new Conversations(memoryStore(), 100, log)
  const restrictions = new RestrictionState(log)
  const brake = new NewChatBrake(conversations, restrictions, perDay)
  const refusal = (phone: string, now = NOW): GatewayError | undefined => {
    try {
      brake.check(phone, now)
      return undefined
    } catch (err) {
      return err as GatewayError
    }
  }
  return { brake, conversations, restrictions, refusal }
}

describe('NewChatBrake', () => {
  it('refuses a new chat during a timelock with its end, lets known chats through, and goes once it ended', () => {
    const { conversations, restrictions, refusal } = brakeWith()
    conversations.add(['5511'])
    const until = '2026-12-07T13:00:00.000Z'
    restrictions.apply({ reachoutTimelock: { active: true, until, enforcementType: 'BIZ_QUALITY' } })
    const refused = refusal('5522')
    expect(refused?.status).toBe(429)
    expect(refused?.message).toBe(
      `account restricted: reach-out timelock until ${until}; no new chats until then, retry in 3600 s`,
    )
    expect(refused?.retryAfterSeconds).toBe(3600)
    expect(refusal('5511')).toBeUndefined()
    expect(refusal('5522', Date.parse(until) + 1)).toBeUndefined()
  })

  it('answers 403 without Retry-After when no end is known', () => {
    const { restrictions, refusal } = brakeWith()
    restrictions.apply({ newChatCap: { status: 'CAPPED', used: 5, total: 5, cycleEndsAt: null } })
    const refused = refusal('5522')
    expect(refused?.status).toBe(403)
    expect(refused?.message).toBe(
      'account restricted: new chat cap reached with no end known; no new chats until it is lifted',
    )
    expect(refused?.retryAfterSeconds).toBeUndefined()
  })

  it('lets new chats through under a warning', () => {
    const { restrictions, refusal } = brakeWith()
    restrictions.apply({ newChatCap: { status: 'SECOND_WARNING', used: 4, total: 5, cycleEndsAt: null } })
    expect(refusal('5522')).toBeUndefined()
  })

  it('counts new chats per UTC day under NEW_CHATS_PER_DAY; known numbers still go', () => {
    const { brake, refusal } = brakeWith(2)
    brake.opened('1', NOW)
    brake.opened('1', NOW) // the same chat again is no new one
    brake.opened('2', NOW)
    const refused = refusal('3')
    expect(refused?.status).toBe(429)
    expect(refused?.message).toBe(
      'account restricted: new chats per day for this session (2) used up until 2026-12-08T00:00:00.000Z, retry in 43200 s',
    )
    expect(refusal('1')).toBeUndefined()
    expect(refusal('3', Date.parse('2026-12-08T00:00:01.000Z'))).toBeUndefined()
  })
})
