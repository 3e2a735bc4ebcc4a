/**
 * The platform's signatures are checked: against real sandbox and gateway processes, a sandbox whose
 * certificate chain is signed by a key other than the root it publishes is refused at the handshake (no QR, the
 * reason in the gateway's log), a phone whose account signature is made with the wrong key is refused at pairing,
 * and the normal sandbox still pairs. A gateway with VERIFY_PLATFORM_SIGNATURES=false shows what rc14 alone did.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SandboxProcess } from '../../support/processes.js'
import { launchGateway, pair, sandboxCall, type Gateway } from '../../support/system/harness.js'
import { gatewayWorld } from '../../support/system/paired-gateway.js'
import { scanNextQr, startSandboxWithEnv } from '../../support/system/signature.js'
import { waitFor } from '../../support/wait-for.js'

const ALICE = '15550000001'
const BOB = '15550000002'
const CAROL = '15550000003'

describe('signature checks against the normal sandbox', () => {
  const world = gatewayWorld({ env: { LOG_LEVEL: 'info' } })

  it('the normal sandbox connects and pairs with the check on', async () => {
    const session = await world.gw.createSession()
    const connected = await pair(world.gw, world.sandbox.url, session, ALICE)
    expect(connected).toMatchObject({
      isConnected: true,
      generatedId: expect.stringMatching(/^15550000001:\d+@s\.whatsapp\.net$/),
    })
  })

  it('a paired session whose reconnect meets a wrong chain stays disconnected, and reconnects once it is right', async () => {
    const session = await world.gw.createSession()
    await pair(world.gw, world.sandbox.url, session, CAROL)
    const refusals = () => world.gw.proc.output().split('noise intermediate certificate signature invalid').length - 1
    const before = refusals()
    await sandboxCall(world.sandbox.url, 'POST', '/faults', { wrongChainKey: true, dropSessionOf: CAROL })
    await waitFor('the refusal in the gateway log', async () => refusals() > before || undefined, 60_000)
    expect((await world.gw.session(session)).body).toMatchObject({ isConnected: false, qrcode: '' })
    await sandboxCall(world.sandbox.url, 'DELETE', '/faults')
    await waitFor('reconnected', async () => (await world.gw.session(session)).body.isConnected || undefined, 120_000)
  })

  it('a pair-success whose account signature is made with the wrong key is refused; the session stays unpaired', async () => {
    await sandboxCall(world.sandbox.url, 'POST', '/faults', { wrongAccountSignature: true })
    const session = await world.gw.createSession()
    const first = await scanNextQr(world.gw, world.sandbox.url, session, BOB)
    // the client closed instead of counter-signing
    expect(first.scan).toEqual({ status: 400, body: { error: 'client refused the pairing: connection closed' } })
    await waitFor(
      'the refusal in the gateway log',
      async () => world.gw.proc.output().includes('Failed to verify account signature') || undefined,
      60_000,
    )
    // Not paired, not half-paired: the session offers a fresh QR, and pairs once the phone signs correctly.
    await sandboxCall(world.sandbox.url, 'DELETE', '/faults')
    const second = await scanNextQr(world.gw, world.sandbox.url, session, BOB, first.png)
    expect(second.scan.status).toBe(200)
    const connected = await waitFor(
      'isConnected',
      async () => {
        const r = await world.gw.session(session)
        return r.body.isConnected ? r.body : undefined
      },
      90_000,
    )
    expect(connected.generatedId).toMatch(/^15550000002:\d+@s\.whatsapp\.net$/)
  })
})

describe('signature checks against a sandbox started with --wrong-chain-key', () => {
  let sandbox: SandboxProcess
  const dataDirs: string[] = []
  const gateways: Gateway[] = []
  const launch = async (env: Record<string, string>) => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'e2e-signature-'))
    dataDirs.push(dataDir)
    const gw = await launchGateway(sandbox.url, dataDir, env)
    gateways.push(gw)
    return gw
  }

  beforeAll(async () => {
    sandbox = await startSandboxWithEnv({ SANDBOX_WRONG_CHAIN_KEY: '1' })
  }, 120_000)
  afterAll(async () => {
    for (const gw of gateways) await gw.proc.stop()
    await sandbox?.stop()
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true })
  })

  it('is refused at the handshake: no QR, not connected, the reason in the log', async () => {
    const gw = await launch({})
    const session = await gw.createSession()
    await waitFor(
      'the refusal in the gateway log',
      async () => gw.proc.output().includes('noise intermediate certificate signature invalid') || undefined,
      60_000,
    )
    const shown = await gw.session(session)
    expect(shown.status).toBe(200)
    expect(shown.body).toMatchObject({ isConnected: false, qrcode: '' })
    // it keeps refusing on the retries too
    await waitFor(
      'a second refusal',
      async () => gw.proc.output().split('noise intermediate certificate signature invalid').length > 2 || undefined,
      90_000,
    )
    expect((await gw.session(session)).body).toMatchObject({ isConnected: false, qrcode: '' })
  })

  it('without the check (VERIFY_PLATFORM_SIGNATURES=false) the same sandbox is trusted and shows a QR', async () => {
    const gw = await launch({ VERIFY_PLATFORM_SIGNATURES: 'false' })
    const session = await gw.createSession()
    const qr = await waitFor('a QR', async () => (await gw.session(session)).body.qrcode || undefined, 60_000)
    expect(qr).not.toBe('')
    expect(gw.proc.output()).not.toContain('certificate signature invalid')
  })
})
