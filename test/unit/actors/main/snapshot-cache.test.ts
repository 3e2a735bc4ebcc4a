/**
 * The main thread's snapshot cache (src/actors/main/snapshot-cache.ts): versions, deletions, secrets, QR deadline.
 */
import { BroadcastChannel } from 'node:worker_threads'
import { describe, expect, it } from 'vitest'
import { hashSecret, newSessionIds, secretMatchesHashBytes } from '../../../../src/actors/main/ids.js'
import { SnapshotCache } from '../../../../src/actors/main/snapshot-cache.js'
import { eventsChannel } from '../../../../src/protocol/thread.js'
import type { SessionSnapshot } from '../../../../src/protocol/snapshot.js'
import { waitFor } from '../../../support/wait-for.js'

describe('SnapshotCache', () => {
  const snap = (id: string, version: number, extra: Partial<SessionSnapshot> = {}): SessionSnapshot => ({
    id,
    state: 'awaiting-qr',
    generatedId: '',
    name: '',
    isConnected: false,
    qrcode: '',
    picture: '',
    qrDeadline: null,
    pairingCode: null,
    version,
    ...extra,
  })

  it('serves the newest snapshot to the right secret, follows deletions, ignores unknown sessions', async () => {
    const name = `cache-test-${Math.random()}`
    const cache = new SnapshotCache(name)
    const actor = new BroadcastChannel(eventsChannel(name))
    try {
      const { id, sessionId } = newSessionIds()
      cache.add(hashSecret(sessionId), snap(id, 0))
      actor.postMessage({ type: 'snapshot', snapshot: snap(id, 5, { qrcode: 'new' }) })
      actor.postMessage({ type: 'snapshot', snapshot: snap(id, 3, { qrcode: 'stale' }) })
      actor.postMessage({ type: 'snapshot', snapshot: snap('stranger', 9) })
      await waitFor('the new snapshot', () => cache.authenticate(id, sessionId)?.version === 5, 20_000, 25)
      await new Promise(resolve => setTimeout(resolve, 50))
      expect(cache.authenticate(id, sessionId)?.qrcode).toBe('new')
      expect(cache.authenticate(id, 'wrong')).toBeUndefined()
      expect(cache.has('stranger')).toBe(false)
      actor.postMessage({ type: 'deleted', id })
      await waitFor('the deletion', () => !cache.has(id), 20_000, 25)
      expect(cache.authenticate(id, sessionId)).toBeUndefined()
    } finally {
      actor.close()
      cache.close()
    }
  })

  it('checks a secret for an unknown id as for a known one, so response timing does not tell which ids exist', () => {
    const checked: string[] = []
    const cache = new SnapshotCache(`cache-test-${Math.random()}`, (hash, presented) => {
      checked.push(presented)
      return secretMatchesHashBytes(hash, presented)
    })
    try {
      const known = newSessionIds()
      cache.add(hashSecret(known.sessionId), snap(known.id, 0))
      expect(cache.authenticate(known.id, 'wrong-1')).toBeUndefined()
      expect(cache.authenticate('no-such-id', 'wrong-2')).toBeUndefined()
      expect(cache.authenticate('no-such-id', known.sessionId)).toBeUndefined() // a real secret under a wrong id
      expect(checked).toEqual(['wrong-1', 'wrong-2', known.sessionId])
      expect(cache.authenticate(known.id, known.sessionId)?.id).toBe(known.id)
    } finally {
      cache.close()
    }
  })

  it('hides an unscanned session shortly after its QR deadline even if no actor deleted it', () => {
    const cache = new SnapshotCache(`cache-test-${Math.random()}`)
    try {
      const { id, sessionId } = newSessionIds()
      cache.add(hashSecret(sessionId), snap(id, 0, { qrDeadline: 1_000_000 }))
      expect(cache.authenticate(id, sessionId, 1_000_000)).toBeDefined()
      expect(cache.authenticate(id, sessionId, 1_000_000 + 60_000)).toBeUndefined()
    } finally {
      cache.close()
    }
  })
})
