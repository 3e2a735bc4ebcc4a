/**
 * @module test/support/system/sandbox-devices
 * Reads the sandbox's per-device ledger (GET /devices): for each companion device, its logins, the 440 `replaced`
 * kicks its older connections got, and the stanzas that arrived on a connection after a newer login superseded it.
 * Tests that move a session between gateway nodes assert on it: no superseded stanza, at most one kick per move.
 */
import type { DeviceRecord } from '../../../src/sandbox/index.js'

export type { DeviceRecord }

/** Every device that logged in to the sandbox at `sandboxUrl`, or only those of the account `phone` when given. */
export async function sandboxDevices(sandboxUrl: string, phone?: string): Promise<DeviceRecord[]> {
  const res = await fetch(`${sandboxUrl}/devices`)
  if (!res.ok) throw new Error(`GET /devices answered ${res.status}: ${await res.text()}`)
  const { devices } = (await res.json()) as { devices: DeviceRecord[] }
  return phone === undefined ? devices : devices.filter(d => d.account === phone)
}
