/**
 * The run marker of a session's stored Signal state (src/platform/baileys/signal-recovery/run-marker.ts): it
 * tells an unclean stop from a clean one, and keeps the recovery state across clean restarts until the keys are
 * cleared. What the recovery then does is ./recovering-keys.test.ts.
 */
import { describe, expect, it } from 'vitest'
import { RunMarker } from '../../../../../src/platform/baileys/signal-recovery/run-marker.js'
import { memoryAuthStore } from '../../../../support/fakes/memory-stores.js'

describe('RunMarker', () => {
  it('tells an unclean stop from a clean one, and keeps the recovery state across clean restarts until the keys are cleared', async () => {
    const auth = memoryAuthStore()
    let clock = 1_000
    const now = () => clock
    const first = new RunMarker(auth, now)
    expect(await first.prepare()).toEqual({ recovery: undefined, crashed: false })
    expect(await first.prepare()).toEqual({ recovery: undefined, crashed: false }) // a reconnect of the same actor

    clock = 2_000 // the process died: no release
    const afterCrash = new RunMarker(auth, now)
    const found = await afterCrash.prepare()
    expect(found.crashed).toBe(true)
    expect(found.recovery).toEqual({ staleBefore: 2_000, renewedKeys: [], renewedGroups: [] })
    await afterCrash.saveRecovery({ staleBefore: 2_000, renewedKeys: ['k'], renewedGroups: ['g'] })
    await afterCrash.release()

    clock = 3_000 // a clean restart: no new crash, and the renewal goes on where it was
    const clean = new RunMarker(auth, now)
    expect(await clean.prepare()).toEqual({
      recovery: { staleBefore: 2_000, renewedKeys: ['k'], renewedGroups: ['g'] },
      crashed: false,
    })

    await auth.clear() // reset or logout: new keys, nothing stale; the marker is written again for the next link
    expect(await clean.prepare()).toEqual({ recovery: undefined, crashed: false })
    expect((await new RunMarker(auth, now).prepare()).crashed).toBe(true)
  })
})
