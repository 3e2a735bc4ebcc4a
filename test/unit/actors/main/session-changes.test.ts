/**
 * What the main thread hears of each session change (src/actors/main/session-changes.ts): the view tokens first,
 * then the watchers (the waiting GET /session); a session dropped while it leaves for another node is `moved`, one
 * deleted is `changed`; a thread that died shows its sessions disconnected to the watchers too; shutdown is told
 * once.
 */
import { describe, expect, it } from 'vitest'
import { hashSecret, newSessionIds } from '../../../../src/actors/main/ids.js'
import type { SessionChange } from '../../../../src/actors/main/session-system.js'
import { sessionChanges } from '../../../../src/actors/main/session-changes.js'
import { SnapshotCache } from '../../../../src/actors/main/snapshot-cache.js'
import { ViewTokens } from '../../../../src/actors/main/view-tokens.js'
import type { SessionSnapshot } from '../../../../src/protocol/snapshot.js'
import { snapshotFor } from '../../../support/fakes/fake-system.js'

/** A snapshot of session `id` awaiting its QR, at `version`. */
const snap = (id: string, version: number, patch: Partial<SessionSnapshot> = {}): SessionSnapshot =>
  snapshotFor(id, { version, qrcode: 'QR1', ...patch })

function setUp(moving: Set<string> = new Set()) {
  const cache = new SnapshotCache(`changes-test-${Math.random()}`)
  const tokens = new ViewTokens(id => cache.snapshotOf(id))
  const changes = sessionChanges(cache, tokens, id => moving.has(id))
  const heard: SessionChange[] = []
  changes.watch(change => heard.push(change))
  const { id, sessionId } = newSessionIds()
  cache.add(hashSecret(sessionId), snap(id, 0))
  return { cache, tokens, changes, heard, id, sessionId, moving }
}

describe('sessionChanges', () => {
  it('tells the watchers of every snapshot and deletion, after the view tokens have seen it', () => {
    const { cache, tokens, changes, heard, id } = setUp()
    const { token } = tokens.issue(id)
    const tokenState: string[] = []
    changes.watch(() => {
      try {
        tokens.view(token)
        tokenState.push('shows a QR')
      } catch (err) {
        tokenState.push((err as { code: string }).code)
      }
    })
    cache.apply({ type: 'snapshot', snapshot: snap(id, 1, { qrcode: 'QR2' }) })
    cache.apply({ type: 'snapshot', snapshot: snap(id, 2, { qrcode: '', isConnected: true, qrDeadline: null }) })
    cache.apply({ type: 'deleted', id })
    expect(heard).toEqual([
      { type: 'changed', id },
      { type: 'changed', id },
      { type: 'changed', id },
    ])
    // a watcher woken by the pairing already finds the link used, by the deletion already gone
    expect(tokenState).toEqual(['shows a QR', 'VIEW_LINK_USED', 'VIEW_LINK_NOT_FOUND'])
    cache.close()
  })

  it('a session the cache drops while it leaves for another node has moved; its state did not change', () => {
    const { cache, heard, id, moving } = setUp()
    moving.add(id)
    cache.remove(id)
    expect(heard).toEqual([{ type: 'moved', id }])
    cache.close()
  })

  it("a shard thread's death shows its connected sessions disconnected, to the watchers too", () => {
    const { cache, heard, id, sessionId } = setUp()
    cache.apply({ type: 'snapshot', snapshot: snap(id, 1, { isConnected: true, name: 'Ann', qrDeadline: null }) })
    heard.length = 0
    cache.markDisconnected(() => true)
    expect(heard).toEqual([{ type: 'changed', id }])
    expect(cache.authenticate(id, sessionId)).toMatchObject({ isConnected: false, name: '', state: 'reconnecting' })
    cache.close()
  })

  it('tells shutdown once', () => {
    const { cache, changes, heard } = setUp()
    changes.close()
    changes.close()
    expect(heard).toEqual([{ type: 'closing' }])
    cache.close()
  })
})
