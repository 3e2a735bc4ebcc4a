/**
 * The account's restrictions as the actor keeps them: shown once first read, one `warn` line per change of state
 * (a restriction set, moved or lifted), none for the first read of an unrestricted account or when only the count
 * of used new chats moves.
 */
import pino from 'pino'
import { describe, expect, it } from 'vitest'
import { RestrictionState } from '../../../../src/actors/session/restriction-state.js'

function stateWithLog() {
  const lines: Array<{ level: number; msg: string }> = []
  const log = pino({ level: 'debug' }, { write: (line: string) => lines.push(JSON.parse(line)) })
  return { restrictions: new RestrictionState(log), warnings: () => lines.filter(l => l.level === 40) }
}

describe('RestrictionState', () => {
  it('warns once per change of state, not when only the count of used chats moves', () => {
    const { restrictions, warnings } = stateWithLog()
    // read at connect, unrestricted: shown, no warning
    expect(restrictions.apply({ newChatCap: { status: 'NONE', used: 0, total: 0, cycleEndsAt: null } })).toBe(true)
    expect(restrictions.shown?.newChatCap.total).toBe(0)
    const cap = { status: 'FIRST_WARNING' as const, used: 1, total: 5, cycleEndsAt: null }
    expect(restrictions.apply({ newChatCap: cap })).toBe(true)
    expect(restrictions.apply({ newChatCap: { ...cap, used: 2 } })).toBe(true)
    expect(restrictions.apply({ newChatCap: { ...cap, used: 2 } })).toBe(false)
    expect(restrictions.apply({ newChatCap: { ...cap, status: 'NONE' } })).toBe(true)
    expect(warnings().map(w => w.msg)).toEqual([
      'account restricted by the platform: new chat cap FIRST_WARNING (1 of 5 used, cycle ends unknown)',
      'account restrictions lifted',
    ])
  })

  it('the two reads at connect of an unrestricted account warn nothing, whatever order and details they come in', () => {
    const { restrictions, warnings } = stateWithLog()
    restrictions.apply({ newChatCap: { status: 'NONE', used: 0, total: 0, cycleEndsAt: null } })
    restrictions.apply({ reachoutTimelock: { active: false, until: null, enforcementType: 'DEFAULT' } })
    restrictions.apply({ newChatCap: { status: 'NONE', used: 0, total: 20, cycleEndsAt: '2026-12-08T00:00:00.000Z' } })
    expect(warnings()).toEqual([])
  })

  it('shows nothing before the first read, and nothing after a reset', () => {
    const { restrictions } = stateWithLog()
    expect(restrictions.shown).toBeNull()
    restrictions.apply({ reachoutTimelock: { active: true, until: null, enforcementType: null } })
    expect(restrictions.shown?.reachoutTimelock.active).toBe(true)
    restrictions.reset()
    expect(restrictions.shown).toBeNull()
    expect(restrictions.current.reachoutTimelock.active).toBe(false)
  })
})
