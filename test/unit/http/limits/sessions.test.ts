/**
 * MAX_SESSIONS on the real actor system (worker threads, lmdb, fake link): creation stops at the cap with
 * SESSIONS_FULL (503), and a deleted session frees its place.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { GatewayError } from '../../../../src/protocol/errors.js'
import { cleanup, startSystem, tempDataDir } from '../../../support/actor-system.js'

afterEach(cleanup)

describe('MAX_SESSIONS', () => {
  it('refuses a session past the cap with a 503 naming it, and takes one again after a delete', async () => {
    const system = await startSystem({ MAX_SESSIONS: '2' })
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
    const before = await startSystem({ MAX_SESSIONS: '1' }, dataDir)
    await before.createSession()
    await before.close()
    const after = await startSystem({ MAX_SESSIONS: '1' }, dataDir)
    await expect(after.createSession()).rejects.toMatchObject({ code: 'SESSIONS_FULL' })
  }, 60_000)
})
