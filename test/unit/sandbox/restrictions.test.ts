/**
 * The sandbox's account restrictions: malformed control bodies are refused with the reason and change nothing; a
 * restricted account's 1:1 message to a number it never exchanged one with is refused (and counted), to a peer it
 * did, to a chat the world lists, or once the restriction's end passed, it is not; the mex queries answer the state
 * as the platform writes it (seconds since the epoch, an ended restriction as over).
 */
import type { BinaryNode } from '@whiskeysockets/baileys'
import { describe, expect, it } from 'vitest'
import type { SandboxContext } from '../../../src/sandbox/context.js'
import {
  AccountRestrictions,
  CAP_QUERY_ID,
  RestrictionInputError,
  TIMELOCK_QUERY_ID,
} from '../../../src/sandbox/restrictions.js'

/** No companions: the notifications go nowhere. */
const ctx = { accounts: { get: () => undefined } } as unknown as SandboxContext
const ALICE = '15550000001'

const query = (queryId: string): BinaryNode => ({
  tag: 'iq',
  attrs: { id: '1', type: 'get', xmlns: 'w:mex', to: 's.whatsapp.net' },
  content: [{ tag: 'query', attrs: { query_id: queryId }, content: Buffer.from('{"variables":{}}') }],
})
const answer = (r: AccountRestrictions, queryId: string) => {
  const reply = r.answerQuery(ALICE, query(queryId))
  if (!reply) throw new Error(`no answer to query ${queryId}`)
  const result = (reply.content as BinaryNode[])[0]!
  return JSON.parse(Buffer.from(result.content as Uint8Array).toString()).data
}

describe('sandbox account restrictions', () => {
  it('refuses malformed bodies with the reason, changing nothing', () => {
    const r = new AccountRestrictions()
    for (const [body, reason] of [
      [{}, 'body needs reachoutTimelock and/or newChatCap'],
      [{ reachoutTimelock: { active: 'yes' } }, 'reachoutTimelock.active must be a boolean'],
      [{ reachoutTimelock: { active: true, until: 'soon' } }, 'reachoutTimelock.until must be an ISO-8601 time'],
      [{ newChatCap: { status: 'FULL', used: 1, total: 2 } }, 'newChatCap.status must be one of'],
      [{ newChatCap: { status: 'CAPPED', used: -1, total: 2 } }, 'newChatCap.used must be a whole number >= 0'],
    ] as const) {
      expect(() => r.set(ctx.accounts, ALICE, body), reason).toThrow(RestrictionInputError)
      expect(() => r.set(ctx.accounts, ALICE, body)).toThrow(reason)
    }
    expect(r.view(ALICE)).toMatchObject({ reachoutTimelock: { active: false }, newChatCap: { status: 'NONE' } })
  })

  it('refuses new chats of a restricted account only, and counts each refusal', () => {
    const r = new AccountRestrictions(phone => (phone === ALICE ? ['15550000007'] : []))
    r.noteExchange(ALICE, '15550000002')
    expect(r.refusesNewChat(ALICE, '15550000003')).toBe(false)
    r.set(ctx.accounts, ALICE, { newChatCap: { status: 'CAPPED', used: 5, total: 5 } })
    expect(r.refusesNewChat(ALICE, '15550000003')).toBe(true)
    expect(r.refusesNewChat(ALICE, '15550000003')).toBe(true)
    expect(r.refusesNewChat(ALICE, '15550000002')).toBe(false) // exchanged before
    expect(r.refusesNewChat(ALICE, '15550000007')).toBe(false) // a chat the world lists
    expect(r.refusesNewChat('15550000002', '15550000003')).toBe(false) // another account
    expect(r.view(ALICE).refusedNewChats).toBe(2)
    r.set(ctx.accounts, ALICE, {
      newChatCap: { status: 'CAPPED', used: 5, total: 5, cycleEndsAt: '2000-01-01T00:00:00Z' },
    })
    expect(r.refusesNewChat(ALICE, '15550000003')).toBe(false) // the cycle ended
  })

  it('answers the timelock and cap queries as the platform writes them', () => {
    const r = new AccountRestrictions()
    expect(answer(r, TIMELOCK_QUERY_ID)).toEqual({
      xwa2_fetch_account_reachout_timelock: { is_active: false, enforcement_type: 'DEFAULT' },
    })
    r.set(ctx.accounts, ALICE, {
      reachoutTimelock: { active: true, until: '2030-01-01T00:00:00Z', enforcementType: 'BIZ_QUALITY' },
      newChatCap: { status: 'FIRST_WARNING', used: 3, total: 20, cycleEndsAt: '2030-01-01T00:00:00Z' },
    })
    expect(answer(r, TIMELOCK_QUERY_ID)).toEqual({
      xwa2_fetch_account_reachout_timelock: {
        is_active: true,
        time_enforcement_ends: '1893456000',
        enforcement_type: 'BIZ_QUALITY',
      },
    })
    expect(answer(r, CAP_QUERY_ID).xwa2_message_capping_info).toMatchObject({
      capping_status: 'FIRST_WARNING',
      used_quota: 3,
      total_quota: 20,
      cycle_end_timestamp: '1893456000',
    })
    r.set(ctx.accounts, ALICE, { reachoutTimelock: { active: true, until: '2000-01-01T00:00:00Z' } })
    expect(answer(r, TIMELOCK_QUERY_ID).xwa2_fetch_account_reachout_timelock.is_active).toBe(false)
    expect(r.answerQuery(ALICE, query('6388546374527196'))).toBeUndefined()
  })
})
