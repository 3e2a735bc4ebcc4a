/**
 * Quiet presence and a chosen device name, through the real gateway, real Baileys and the sandbox's device ledger
 * (GET /devices): by default the gateway announces itself `unavailable` at connect, never `available` (which shows
 * the account online and stops the owner's phone from notifying), and the phone lists it under the default name;
 * PLATFORM_ONLINE_ON_CONNECT and PLATFORM_DEVICE_NAME change both.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { launchPaired } from '../../support/system/harness.js'
import { pairedGateway } from '../../support/system/paired-gateway.js'
import { sandboxDevices } from '../../support/system/sandbox-devices.js'
import { waitFor } from '../../support/wait-for.js'

const ALICE = '15550000001'
const BOB = '15550000002'
const world = {
  accounts: [
    { phone: ALICE, name: 'Alice' },
    { phone: BOB, name: 'Bob' },
  ],
}

/** The one device of `phone` once it announced a presence at connect. */
const announced = (sandboxUrl: string, phone: string) =>
  waitFor(`${phone}'s presence at connect`, async () => {
    const [device] = await sandboxDevices(sandboxUrl, phone)
    return device && Object.keys(device.presence).length > 0 ? device : undefined
  })

describe('presence and device name', () => {
  const paired = pairedGateway(ALICE, { world })

  it('by default the gateway never shows the account online, and the phone lists it as "Mac OS"', async () => {
    const device = await announced(paired.sandbox.url, ALICE)
    expect(device.presence).toEqual({ unavailable: 1 })
    expect(device.name).toBe('Mac OS')
  })

  it('PLATFORM_ONLINE_ON_CONNECT shows it online; PLATFORM_DEVICE_NAME names it in the linked-devices list', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'e2e-online-'))
    const online = await launchPaired(paired.sandbox.url, dataDir, BOB, {
      PLATFORM_ONLINE_ON_CONNECT: 'true',
      PLATFORM_DEVICE_NAME: 'Front desk',
    })
    try {
      const device = await announced(paired.sandbox.url, BOB)
      expect(device.presence).toEqual({ available: 1 })
      expect(device.name).toBe('Front desk')
    } finally {
      await online.gw.proc.stop()
      rmSync(dataDir, { recursive: true, force: true })
    }
  }, 120_000)
})
