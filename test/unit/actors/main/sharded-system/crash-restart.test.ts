/**
 * @module test/unit/actors/main/sharded-system/crash-restart
 * A worker thread that dies mid-request fails only that request (WORKER_CRASHED), the other shard keeps working,
 * and the replacement thread brings the shard's sessions back from storage. A full restart (close the system,
 * start a new one on the same DATA_DIR) keeps every session.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { GatewayError } from '../../../../../src/protocol/errors.js'
import { FAKE_ME } from '../../../../support/fakes/fake-link.js'
import {
  cleanup,
  fake,
  fakeEvents,
  pairedSession,
  sessionOnShard,
  snapshotOf,
  startSystem,
  tempDataDir,
  waitForQr,
  type Session,
} from '../../../../support/actor-system.js'
import type { ShardedSessionSystem } from '../../../../../src/actors/main/sharded-system.js'
import { openLmdbStore } from '../../../../../src/storage/lmdb-store.js'
import { waitFor } from '../../../../support/wait-for.js'

afterEach(cleanup)

const text = (t: string) => ({
  type: 'sendMessage' as const,
  destination: { kind: 'phone' as const, phone: '5511988887777' },
  content: { type: 'text' as const, text: t },
})

async function pair(system: ShardedSessionSystem, s: Session): Promise<void> {
  await waitForQr(system, s)
  fake(s.id, 'scan')
  await waitFor(`${s.id} connected`, () => snapshotOf(system, s)?.isConnected, 20_000, 25)
}

const linksOf = (events: { session: string; event: string }[], id: string) =>
  events.filter(e => e.session === id && e.event === 'link-created').length

describe('a worker thread dies', () => {
  it('fails the requests in flight with WORKER_CRASHED; the shard comes back from storage, the other never left', async () => {
    const system = await startSystem()
    const events = fakeEvents()
    const victim = await sessionOnShard(system, 0)
    const bystander = await sessionOnShard(system, 0)
    const unpaired = await sessionOnShard(system, 0)
    const other = await sessionOnShard(system, 1)
    for (const s of [victim, bystander, other]) await pair(system, s)
    await waitForQr(system, unpaired)
    const unpairedDeadline = snapshotOf(system, unpaired)!.qrDeadline
    const linksBefore = linksOf(events, victim.id)

    const slow = system.run(bystander.id, text('slow:60000')) // in flight on the thread that dies
    await waitFor(
      'the slow send',
      () => events.some(e => e.session === bystander.id && e.text === 'slow:60000'),
      20_000,
      25,
    )
    const crash = system.run(victim.id, text('crash'))
    for (const r of await Promise.allSettled([slow, crash])) {
      expect(r.status).toBe('rejected')
      const err = (r as PromiseRejectedResult).reason as GatewayError
      expect(err).toBeInstanceOf(GatewayError)
      expect(err.code).toBe('WORKER_CRASHED')
      expect(err.status).toBe(500)
    }

    // The lost thread's sockets are gone: its connected sessions say so at once, before the restore.
    expect(snapshotOf(system, bystander)).toMatchObject({ isConnected: false, name: '' })
    expect(snapshotOf(system, victim)?.isConnected).toBe(false)

    // The other shard never noticed.
    expect(await system.run(other.id, text('still here'))).toEqual({ messageId: expect.any(String) })
    expect(snapshotOf(system, other)?.isConnected).toBe(true)

    // The replacement thread restored the shard from storage: same id and secret, paired sessions reconnect.
    await waitFor('the victim restored', () => linksOf(events, victim.id) > linksBefore, 20_000, 25)
    await waitFor('the victim connected again', () => snapshotOf(system, victim)?.isConnected, 20_000, 25)
    await waitFor('the bystander connected again', () => snapshotOf(system, bystander)?.isConnected, 20_000, 25)
    expect(snapshotOf(system, victim)).toMatchObject({ generatedId: FAKE_ME.id, qrDeadline: null })
    expect(await system.run(victim.id, text('after the crash'))).toEqual({ messageId: expect.any(String) })
    expect(
      await system.run(bystander.id, { type: 'sendTyping', destination: { kind: 'phone', phone: '1' }, kind: 'text' }),
    ).toEqual({ id: bystander.id })
    // The unpaired one is awaiting its QR again, with its original deadline.
    await waitFor('the unpaired session restored', () => linksOf(events, unpaired.id) >= 2, 20_000, 25)
    await waitFor('a QR for the unpaired session', () => snapshotOf(system, unpaired)?.qrcode, 20_000, 25)
    expect(snapshotOf(system, unpaired)?.qrDeadline).toBe(unpairedDeadline)
    expect(system.stats().map(s => s.threads)).toEqual([1, 1])
  })
})

describe('a full restart on the same DATA_DIR', () => {
  it('keeps sessions: paired ones reconnect, unpaired ones await a QR until their original deadline', async () => {
    const dir = tempDataDir()
    const first = await startSystem({}, dir)
    const paired = await pairedSession(first)
    const unpaired = await first.createSession()
    await waitForQr(first, unpaired)
    const deadline = snapshotOf(first, unpaired)!.qrDeadline
    await first.close()

    const events = fakeEvents()
    const second = await startSystem({}, dir)
    // Known at once, before any actor published.
    expect(snapshotOf(second, paired)).toMatchObject({ id: paired.id, generatedId: FAKE_ME.id, isConnected: false })
    expect(snapshotOf(second, unpaired)).toMatchObject({ id: unpaired.id, qrDeadline: deadline })
    expect(second.authenticate(paired.id, unpaired.sessionId)).toBeUndefined()

    await waitFor('the paired session reconnected', () => snapshotOf(second, paired)?.isConnected, 20_000, 25)
    expect(snapshotOf(second, paired)).toMatchObject({ name: FAKE_ME.name, qrcode: '' })
    await waitFor('a QR for the unpaired session', () => snapshotOf(second, unpaired)?.qrcode, 20_000, 25)
    expect(snapshotOf(second, unpaired)).toMatchObject({ isConnected: false, qrDeadline: deadline })
    expect(await second.run(paired.id, text('after restart'))).toEqual({ messageId: expect.any(String) })
    // Closing did not log anybody out.
    expect(events.some(e => e.event === 'logout')).toBe(false)
  })

  it('deletes on restart an unpaired session whose deadline passed while the gateway was down', async () => {
    const dir = tempDataDir()
    const first = await startSystem({ SESSION_QR_LIFETIME_MS: '4000' }, dir)
    const s = await first.createSession()
    const deadline = snapshotOf(first, s)!.qrDeadline!
    await first.close()
    await new Promise(resolve => setTimeout(resolve, Math.max(0, deadline - Date.now()) + 100))
    const second = await startSystem({ SESSION_QR_LIFETIME_MS: '4000' }, dir)
    expect(snapshotOf(second, s)).toBeUndefined()
    await expect(second.run(s.id, text('x'))).rejects.toMatchObject({ code: 'SESSION_NOT_FOUND' })
    // the restore (which deletes the expired session) runs behind the API; readiness says it finished
    await waitFor('the restore finished', () => second.ops?.readiness().ready || undefined, 20_000, 25)
    await second.close()
    const store = openLmdbStore(dir)
    try {
      expect(await store.getSession(s.id)).toBeUndefined()
    } finally {
      await store.close()
    }
  })
})
