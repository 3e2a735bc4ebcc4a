/**
 * @module test/support/system/sandbox-devices
 * Reads the sandbox's per-device ledger (GET /devices): for each companion device, its logins, the 440 `replaced`
 * kicks its older connections got, and the stanzas that arrived on a connection after a newer login superseded it.
 * Tests that move a session between gateway nodes assert on it: no superseded stanza, at most one kick per move.
 */
import { expect } from 'vitest'
import type { DeviceRecord } from '../../../src/sandbox/index.js'

export type { DeviceRecord }

/** Every device that logged in to the sandbox at `sandboxUrl`, or only those of the account `phone` when given. */
export async function sandboxDevices(sandboxUrl: string, phone?: string): Promise<DeviceRecord[]> {
  const res = await fetch(`${sandboxUrl}/devices`)
  if (!res.ok) throw new Error(`GET /devices answered ${res.status}: ${await res.text()}`)
  const { devices } = (await res.json()) as { devices: DeviceRecord[] }
  return phone === undefined ? devices : devices.filter(d => d.account === phone)
}

/** Per account: logins, 440 kicks, and stanzas on superseded connections, summed over its devices. */
export type AccountLedger = Map<string, { logins: number; replacedKicks: number; supersededStanzas: number }>

export async function ledgerByAccount(sandboxUrl: string): Promise<AccountLedger> {
  const byAccount: AccountLedger = new Map()
  for (const d of await sandboxDevices(sandboxUrl)) {
    const a = byAccount.get(d.account) ?? { logins: 0, replacedKicks: 0, supersededStanzas: 0 }
    a.logins += d.logins
    a.replacedKicks += d.replacedKicks
    a.supersededStanzas += d.supersededStanzas
    byAccount.set(d.account, a)
  }
  return byAccount
}

/**
 * What the platform saw since `before` (a `ledgerByAccount`), for each of `phones`: no stanza ever arrived on a
 * superseded connection, and at most `maxKicks` 440s per account.
 */
export async function expectCleanMoves(
  sandboxUrl: string,
  phones: string[],
  before: AccountLedger,
  maxKicks = 0,
): Promise<void> {
  const after = await ledgerByAccount(sandboxUrl)
  for (const phone of phones) {
    const now = after.get(phone)!
    const then = before.get(phone) ?? { logins: 0, replacedKicks: 0, supersededStanzas: 0 }
    expect(now.supersededStanzas, `stanzas on a superseded connection of ${phone}`).toBe(0)
    expect(now.replacedKicks - then.replacedKicks, `440 kicks of ${phone}`).toBeLessThanOrEqual(maxKicks)
  }
}
