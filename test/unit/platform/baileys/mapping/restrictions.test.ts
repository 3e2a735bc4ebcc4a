/**
 * Baileys' views of the account's restrictions → GET /session's: a timelock with its end and reason (Baileys'
 * `DEFAULT` is no reason), a lifted one, and the platform's raw cap object with its seconds-since-epoch cycle end
 * ('0' or absent: none) and an unknown status read as NONE.
 */
import { describe, expect, it } from 'vitest'
import type { ReachoutTimelockState } from '@whiskeysockets/baileys'
import { capOf, timelockOf } from '../../../../../src/platform/baileys/mapping/restrictions.js'

describe('restriction mapping', () => {
  it('maps a timelock', () => {
    const ends = new Date('2026-12-08T10:00:00.000Z')
    expect(
      timelockOf({
        isActive: true,
        timeEnforcementEnds: ends,
        enforcementType: 'BIZ_QUALITY',
      } as ReachoutTimelockState),
    ).toEqual({ active: true, until: '2026-12-08T10:00:00.000Z', enforcementType: 'BIZ_QUALITY' })
    expect(timelockOf({ isActive: true, enforcementType: 'DEFAULT' } as ReachoutTimelockState)).toEqual({
      active: true,
      until: null,
      enforcementType: null,
    })
    expect(timelockOf({ isActive: false, enforcementType: 'DEFAULT' } as ReachoutTimelockState)).toEqual({
      active: false,
      until: null,
      enforcementType: null,
    })
  })

  it('maps the new-chat cap', () => {
    expect(
      capOf({ capping_status: 'CAPPED', used_quota: 20, total_quota: 20, cycle_end_timestamp: '1796724000' } as never),
    ).toEqual({ status: 'CAPPED', used: 20, total: 20, cycleEndsAt: '2026-12-08T10:00:00.000Z' })
    expect(capOf({ capping_status: 'SOMETHING_NEW', cycle_end_timestamp: '0' } as never)).toEqual({
      status: 'NONE',
      used: null,
      total: null,
      cycleEndsAt: null,
    })
    expect(capOf(undefined)).toEqual({ status: 'NONE', used: null, total: null, cycleEndsAt: null })
  })
})
