/**
 * The web client version, through the real gateway, real Baileys and a sandbox that refuses the version Baileys
 * bundles (`--min-client-version`, one build newer), as the platform refuses a stale client at login (405): the
 * gateway learns the current version from the sandbox before its first connection and pairs without a single
 * refusal; when the platform moves on mid-session, the next login is refused once, the gateway looks the version up
 * again and reconnects; a gateway pinned to the old version (PLATFORM_CLIENT_VERSION) never shows a QR and GET
 * /session says why.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { DEFAULT_CONNECTION_CONFIG } from '@whiskeysockets/baileys'
import { describe, expect, it } from 'vitest'
import { launchGateway, sandboxCall, startWorld } from '../../support/system/harness.js'
import { pairedGateway } from '../../support/system/paired-gateway.js'
import { waitFor } from '../../support/wait-for.js'

const ALICE = '15550000001'
const [major, minor, build] = DEFAULT_CONNECTION_CONFIG.version
const BUNDLED = `${major}.${minor}.${build}`
const NEWER = `${major}.${minor}.${build + 1}`
const NEWEST = `${major}.${minor}.${build + 2}`

describe('the web client version', () => {
  const paired = pairedGateway(ALICE, {
    start: () => startWorld(undefined, { minClientVersion: NEWER }),
    // a reconnect delay long enough for a 250 ms poll to see the refusal's reason
    env: { RECONNECT_MIN_MS: '2000', RECONNECT_MAX_MS: '4000' },
  })
  const refusals = async (): Promise<number> =>
    (await sandboxCall(paired.sandbox.url, 'GET', '/stats')).body.clientVersionRefusals ?? 0

  it('pairs against a sandbox that refuses the bundled version, having learned the current one first', async () => {
    expect((await sandboxCall(paired.sandbox.url, 'GET', '/trust')).body.clientVersion).toBe(NEWER)
    expect((await paired.gw.session(paired.session)).body.isConnected).toBe(true)
    expect(await refusals()).toBe(0) // not refused once: the first connection already named the current version
  })

  it('when the platform moves on, the refused login makes the gateway look the version up again and reconnect', async () => {
    expect((await sandboxCall(paired.sandbox.url, 'POST', '/client-version', { min: NEWEST })).status).toBe(200)
    await sandboxCall(paired.sandbox.url, 'POST', '/faults', { dropSessionOf: ALICE })
    const refused = await waitFor('the refusal in GET /session', async () => {
      const body = (await paired.gw.session(paired.session)).body
      return body.reason === 'client-version-refused' ? body : undefined
    })
    expect(refused).toMatchObject({ isConnected: false, reason: 'client-version-refused' })
    expect(refused.reasonMessage).toBe(
      `the platform refused web client version ${NEWER} (405): looking up the current one and trying again`,
    )
    const back = await waitFor('connected again', async () => {
      const body = (await paired.gw.session(paired.session)).body
      return body.isConnected ? body : undefined
    })
    expect(back.reason).toBeUndefined() // connected: nothing to explain
    expect(await refusals()).toBe(1) // one refusal, one new lookup, and the next login named the current version
  }, 60_000)

  it('a gateway pinned to an older version is refused at every attempt, never shows a QR, and says why', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'e2e-pinned-'))
    const pinned = await launchGateway(paired.sandbox.url, dataDir, {
      PLATFORM_CLIENT_VERSION: BUNDLED,
      RECONNECT_MIN_MS: '200',
      RECONNECT_MAX_MS: '400',
    })
    try {
      const before = await refusals()
      const session = await pinned.createSession()
      const shown = await waitFor('the reason in GET /session', async () => {
        const body = (await pinned.session(session)).body
        return body.reason ? body : undefined
      })
      expect(shown).toMatchObject({ isConnected: false, qrcode: '', reason: 'client-version-refused' })
      expect(shown.reasonMessage).toBe(
        `the platform refused web client version ${BUNDLED} (405), pinned by PLATFORM_CLIENT_VERSION: pin the ` +
          'current version or unset it',
      )
      // it keeps trying (the operator may fix the platform side), each attempt refused, still no QR
      await waitFor('more refused attempts', async () => (await refusals()) >= before + 3)
      expect((await pinned.session(session)).body).toMatchObject({ qrcode: '', reason: 'client-version-refused' })
    } finally {
      await pinned.proc.stop()
      rmSync(dataDir, { recursive: true, force: true })
    }
  }, 90_000)
})
