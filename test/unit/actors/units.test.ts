/**
 * @module test/unit/actors/units
 * The small parts of the actor system, without threads: mailbox order, backoff bounds, ids and secrets, shard
 * routing, and the snapshot cache's rules (versions, deletions, secrets, QR deadline).
 */
import { BroadcastChannel } from 'node:worker_threads'
import pino from 'pino'
import { describe, expect, it } from 'vitest'
import { reconnectDelay } from '../../../src/actors/session/backoff.js'
import { hashSecret, newSessionIds, secretMatches } from '../../../src/actors/main/ids.js'
import { routeLibsignalConsole } from '../../../src/platform/baileys/patches/libsignal-console.js'
import { Mailbox } from '../../../src/actors/session/mailbox.js'
import { shardOf } from '../../../src/protocol/shard.js'
import { SnapshotCache } from '../../../src/actors/main/snapshot-cache.js'
import { eventsChannel } from '../../../src/protocol/thread.js'
import type { SessionSnapshot } from '../../../src/protocol/snapshot.js'
import {  } from '../../support/actor-system.js'
import { waitFor } from '../../support/wait-for.js'

describe('Mailbox', () => {
  it('runs jobs one at a time in posting order, and a failure does not stop the queue', async () => {
    const box = new Mailbox()
    const log: string[] = []
    const job = (name: string, ms: number, fail = false) => () => new Promise<string>((resolve, reject) => {
      log.push(`start ${name}`)
      setTimeout(() => {
        log.push(`end ${name}`)
        if (fail) reject(new Error(name))
        else resolve(name)
      }, ms)
    })
    const a = box.post(job('a', 30))
    const b = box.post(job('b', 1, true))
    const c = box.post(job('c', 1))
    expect(box.size).toBe(3)
    await expect(a).resolves.toBe('a')
    await expect(b).rejects.toThrow('b')
    await expect(c).resolves.toBe('c')
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c'])
    expect(box.size).toBe(0)
  })
})

describe('reconnectDelay', () => {
  it('grows exponentially between half and all of the step, capped at the maximum', () => {
    expect(reconnectDelay(0, 1000, 60_000, () => 0)).toBe(500)
    expect(reconnectDelay(0, 1000, 60_000, () => 1)).toBe(1000)
    expect(reconnectDelay(3, 1000, 60_000, () => 1)).toBe(8000)
    expect(reconnectDelay(50, 1000, 60_000, () => 1)).toBe(60_000)
    expect(reconnectDelay(50, 1000, 60_000, () => 0)).toBe(30_000)
  })
})

describe('ids', () => {
  it('makes long random ids and checks secrets only against their hash', () => {
    const a = newSessionIds()
    const b = newSessionIds()
    expect(a.id).not.toBe(b.id)
    expect(a.sessionId).not.toBe(a.id)
    expect(Buffer.from(a.sessionId, 'base64url').length).toBeGreaterThanOrEqual(16)
    const hash = hashSecret(a.sessionId)
    expect(hash).toMatch(/^[0-9a-f]{64}$/)
    expect(hash).not.toContain(a.sessionId)
    expect(secretMatches(hash, a.sessionId)).toBe(true)
    expect(secretMatches(hash, b.sessionId)).toBe(false)
    expect(secretMatches(hash, '')).toBe(false)
  })

  it('routes an id to the same shard every time, and spreads ids over all shards', () => {
    const ids = Array.from({ length: 400 }, () => newSessionIds().id)
    for (const id of ids) expect(shardOf(id, 4)).toBe(shardOf(id, 4))
    const counts = [0, 0, 0, 0]
    for (const id of ids) counts[shardOf(id, 4)]!++
    for (const c of counts) expect(c).toBeGreaterThan(50)
  })
})

describe('SnapshotCache', () => {
  const snap = (id: string, version: number, extra: Partial<SessionSnapshot> = {}): SessionSnapshot => ({
    id, state: 'awaiting-qr', generatedId: '', name: '', isConnected: false, qrcode: '', picture: '',
    qrDeadline: null, version, ...extra,
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
      return secretMatches(hash, presented)
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

describe('routeLibsignalConsole', () => {
  it('keeps libsignal session records (with private keys) out of the console, and lets other lines through', () => {
    const saved = { log: console.log, info: console.info, warn: console.warn }
    const printed: unknown[][] = []
    console.info = (...args: unknown[]) => { printed.push(args) }
    console.warn = (...args: unknown[]) => { printed.push(args) }
    const logged: string[] = []
    const logger = pino({ level: 'debug' }, { write: (line: string) => { logged.push(line) } })
    try {
      routeLibsignalConsole(logger)
      console.info('Closing session:', { privKey: 'SECRET-KEY' })
      console.warn('Session already closed', { privKey: 'SECRET-KEY' })
      console.warn('something else')
    } finally {
      Object.assign(console, saved)
    }
    expect(printed).toEqual([['something else']])
    expect(logged.join('')).toContain('Closing session:')
    expect(logged.join('')).not.toContain('SECRET-KEY')
  })
})
