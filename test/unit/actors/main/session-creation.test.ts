/**
 * The creation limits on the real actor system (worker threads, lmdb, fake link): creation stops at MAX_SESSIONS
 * with SESSIONS_FULL (503), and a deleted session frees its place; at most UNPAIRED_MAX_PERCENT of MAX_SESSIONS
 * await a scan at once whoever created them (503 with Retry-After), so no spread of addresses fills the server
 * with sessions nobody scans; UNPAIRED_PER_CLIENT caps one client (429), but not a caller that proved
 * CREATE_SESSION_TOKEN, which only the global caps hold.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { GatewayError } from '../../../../src/protocol/errors.js'
import { cleanup, startSystem, tempDataDir } from '../../../support/actor-system.js'

afterEach(cleanup)

describe('MAX_SESSIONS', () => {
  it('refuses a session past the cap with a 503 naming it, and takes one again after a delete', async () => {
    const system = await startSystem({ MAX_SESSIONS: '2', UNPAIRED_MAX_PERCENT: '100' })
    const first = await system.createSession()
    await system.createSession()
    const refused = await system.createSession().then(
      () => undefined,
      (err: unknown) => err,
    )
    expect(refused).toBeInstanceOf(GatewayError)
    expect((refused as GatewayError).status).toBe(503)
    expect((refused as GatewayError).message).toBe('session limit reached (2 sessions on this server), retry later')

    await system.deleteSession(first.id)
    const again = await system.createSession()
    expect(system.authenticate(again.id, again.sessionId)).toBeDefined()
  }, 60_000)

  it('counts sessions restored from storage after a restart', async () => {
    const dataDir = tempDataDir()
    const before = await startSystem({ MAX_SESSIONS: '1', UNPAIRED_MAX_PERCENT: '100' }, dataDir)
    await before.createSession()
    await before.close()
    const after = await startSystem({ MAX_SESSIONS: '1', UNPAIRED_MAX_PERCENT: '100' }, dataDir)
    await expect(after.createSession()).rejects.toMatchObject({ code: 'SESSIONS_FULL' })
  }, 60_000)

  const refusal = (work: Promise<unknown>) =>
    work.then(
      () => undefined,
      (err: unknown) => err as GatewayError,
    )

  it('holds at most a share of MAX_SESSIONS awaiting a scan, from any number of clients', async () => {
    const system = await startSystem({ MAX_SESSIONS: '10', UNPAIRED_MAX_PERCENT: '20' })
    const first = await system.createSession({ key: '2001:db8:0:1::/64', trusted: false })
    await system.createSession({ key: '2001:db8:0:2::/64', trusted: false })
    const third = await refusal(system.createSession({ key: '2001:db8:0:3::/64', trusted: false }))
    expect(third?.status).toBe(503)
    expect(third?.message).toMatch(/^too many sessions awaiting a QR scan on this server \(2\), retry in \d+ s$/)
    expect(third?.retryAfterSeconds).toBeGreaterThanOrEqual(170) // until the first QR window (3 min) ends
    // the operator's own caller too: it is capped globally
    expect(await refusal(system.createSession({ key: '198.51.100.7', trusted: true }))).toMatchObject({ status: 503 })
    await system.deleteSession(first.id)
    await system.createSession({ key: '2001:db8:0:3::/64', trusted: false })
  }, 60_000)

  it('caps one client, but not a caller that proved CREATE_SESSION_TOKEN', async () => {
    const system = await startSystem({ UNPAIRED_PER_CLIENT: '1' })
    const client = { key: '198.51.100.7', trusted: false }
    await system.createSession(client)
    const refused = await refusal(system.createSession(client))
    expect(refused?.status).toBe(429)
    expect(refused?.message).toMatch(/^too many unpaired sessions for this client \(1\); scan or delete one/)
    const backend = { key: '198.51.100.7', trusted: true }
    for (let i = 0; i < 3; i++) await system.createSession(backend)
    // another client is not held back by the first one
    await system.createSession({ key: '203.0.113.1', trusted: false })
  }, 60_000)
})
