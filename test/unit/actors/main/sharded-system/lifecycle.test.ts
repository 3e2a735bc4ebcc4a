/**
 * @module test/unit/actors/main/sharded-system/lifecycle
 * The session state machine as a client sees it through GET /session (`authenticate`) and commands: QR, pairing,
 * QR expiry, reset, delete, logout on the phone, dropped connections, typing.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { openLmdbStore } from '../../../../../src/storage/lmdb-store.js'
import { GatewayError } from '../../../../../src/protocol/errors.js'
import {
  cleanup,
  fake,
  fakeEvents,
  pairedSession,
  snapshotOf,
  startSystem,
  tempDataDir,
  waitForQr,
  warmUp,
} from '../../../../support/actor-system.js'
import { FAKE_ME } from '../../../../support/fakes/fake-link.js'
import { readQrPng } from '../../../../../src/demo/qr-decode.js'
import { waitFor } from '../../../../support/wait-for.js'

afterEach(cleanup)

const text = (t: string) => ({
  type: 'sendMessage' as const,
  destination: { kind: 'phone' as const, phone: '5511988887777' },
  content: { type: 'text' as const, text: t },
})

const codeOf = async (work: Promise<unknown>) => {
  const err = await work.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(err).toBeInstanceOf(GatewayError)
  return (err as GatewayError).code
}

describe('awaiting QR scan', () => {
  it('answers GET /session at once, then shows the latest QR as a scannable PNG', async () => {
    const system = await startSystem()
    const s = await system.createSession()
    expect(s.id).toMatch(/^[\w-]{24}$/)
    expect(s.sessionId).toMatch(/^[\w-]{24}$/)
    expect(snapshotOf(system, s)).toMatchObject({ id: s.id, isConnected: false, qrcode: '', generatedId: '', name: '' })

    const first = await waitForQr(system, s)
    expect(readQrPng(first)).toMatch(new RegExp(`^fake-qr:${s.id}:\\d+$`))
    fake(s.id, 'qr')
    const second = await waitFor(
      'a new QR',
      () => {
        const q = snapshotOf(system, s)?.qrcode
        return q && q !== first ? q : undefined
      },
      20_000,
      25,
    )
    expect(readQrPng(second)).not.toBe(readQrPng(first))
  })

  it('does not reveal a session to a wrong secret', async () => {
    const system = await startSystem()
    const s = await system.createSession()
    expect(system.authenticate(s.id, `${s.sessionId}x`)).toBeUndefined()
    expect(system.authenticate(s.id, '')).toBeUndefined()
    expect(system.authenticate('unknown', s.sessionId)).toBeUndefined()
  })

  it('refuses commands with SESSION_NOT_CONNECTED before pairing', async () => {
    const system = await startSystem()
    const s = await system.createSession()
    await waitForQr(system, s)
    expect(await codeOf(system.run(s.id, text('hi')))).toBe('SESSION_NOT_CONNECTED')
    expect(await codeOf(system.run(s.id, { type: 'listGroups' }))).toBe('SESSION_NOT_CONNECTED')
  })

  it('deletes an unscanned session when its QR lifetime ends: later calls get 404', async () => {
    const dir = tempDataDir()
    const system = await startSystem({ SESSION_QR_LIFETIME_MS: '1500' }, dir)
    const s = await system.createSession()
    expect(snapshotOf(system, s)).toBeDefined()
    await waitFor('the session to be deleted', () => snapshotOf(system, s) === undefined, 20_000, 25)
    // GET /session hides it at its deadline; the actor's deletion follows on the shard (a moment later under load)
    await waitFor(
      'a later call to get 404',
      async () => (await codeOf(system.run(s.id, text('hi')))) === 'SESSION_NOT_FOUND',
      20_000,
      25,
    )
    await system.close()
    const store = openLmdbStore(dir)
    try {
      expect(await store.getSession(s.id)).toBeUndefined()
    } finally {
      await store.close()
    }
  })

  it('opens a new link with a fresh QR when the platform QR refs run out inside the deadline', async () => {
    const system = await startSystem()
    const events = fakeEvents()
    const s = await system.createSession()
    const first = await waitForQr(system, s)
    fake(s.id, 'qr-expired')
    await waitFor(
      'a new link',
      () => events.filter(e => e.session === s.id && e.event === 'link-created').length >= 2,
      20_000,
      25,
    )
    await waitFor('a fresh QR', () => snapshotOf(system, s)?.qrcode !== first, 20_000, 25)
    expect(snapshotOf(system, s)?.qrcode).not.toBe('')
  })
})

describe('pairing and connected sessions', () => {
  it('becomes connected after a scan, with the device id, name and picture, and no QR', async () => {
    const system = await startSystem({ SESSION_QR_LIFETIME_MS: '2000' })
    await warmUp(system) // so a 2 s QR lifetime is enough to pair
    const s = await pairedSession(system)
    await waitFor('the picture', () => snapshotOf(system, s)?.picture, 20_000, 25)
    expect(snapshotOf(system, s)).toMatchObject({
      isConnected: true,
      qrcode: '',
      generatedId: FAKE_ME.id,
      name: FAKE_ME.name,
      qrDeadline: null,
      picture: 'http://127.0.0.1/fake-picture.jpg',
    })
    // Past the QR lifetime a paired session stays.
    await new Promise(resolve => setTimeout(resolve, 2500))
    expect(snapshotOf(system, s)?.isConnected).toBe(true)
    expect(await system.run(s.id, text('hello'))).toEqual({ messageId: expect.stringMatching(/^fake-/) })
  })

  it('typing shows composing or recording, replies with the session id, then pauses', async () => {
    const system = await startSystem()
    const events = fakeEvents()
    const s = await pairedSession(system)
    const reply = await system.run(s.id, {
      type: 'sendTyping',
      destination: { kind: 'phone', phone: '5511' },
      kind: 'audio',
    })
    expect(reply).toEqual({ id: s.id })
    await waitFor('paused', () => events.some(e => e.session === s.id && e.state === 'paused'), 20_000, 25)
    const states = events.filter(e => e.session === s.id && e.event === 'presence').map(e => e.state)
    expect(states).toEqual(['recording', 'paused'])
    await system.run(s.id, { type: 'sendTyping', destination: { kind: 'group', jid: '1@g.us' }, kind: 'text' })
    await waitFor(
      'second pause',
      () => events.filter(e => e.session === s.id && e.state === 'paused').length === 2,
      20_000,
      25,
    )
    expect(events.filter(e => e.session === s.id && e.event === 'presence').map(e => e.state)).toEqual([
      'recording',
      'paused',
      'composing',
      'paused',
    ])
  })

  it('reconnects after a dropped connection', async () => {
    const system = await startSystem({ RECONNECT_MIN_MS: '50', RECONNECT_MAX_MS: '200' })
    const events = fakeEvents()
    const s = await pairedSession(system)
    fake(s.id, 'drop')
    await waitFor(
      'a new link',
      () => events.filter(e => e.session === s.id && e.event === 'link-created').length >= 3,
      20_000,
      25,
    )
    await waitFor('connected again', () => snapshotOf(system, s)?.isConnected, 20_000, 25)
    expect(snapshotOf(system, s)?.generatedId).toBe(FAKE_ME.id)
  })

  it('goes back to awaiting QR with a new deadline when the phone logs the device out', async () => {
    const system = await startSystem()
    const s = await pairedSession(system)
    const before = Date.now()
    fake(s.id, 'logout')
    await waitFor('a new QR', () => snapshotOf(system, s)?.qrcode, 20_000, 25)
    const snap = snapshotOf(system, s)!
    expect(snap).toMatchObject({ isConnected: false, generatedId: '', name: '' })
    expect(snap.qrDeadline).toBeGreaterThanOrEqual(before + 180_000)
  })

  it('stays disconnected when replaced by another connection (no reconnect loop)', async () => {
    const system = await startSystem({ RECONNECT_MIN_MS: '10', RECONNECT_MAX_MS: '20' })
    const events = fakeEvents()
    const s = await pairedSession(system)
    const links = () => events.filter(e => e.session === s.id && e.event === 'link-created').length
    fake(s.id, 'replaced')
    await waitFor('disconnected', () => snapshotOf(system, s)?.isConnected === false, 20_000, 25)
    const seen = links()
    await new Promise(resolve => setTimeout(resolve, 500))
    expect(links()).toBe(seen)
    expect(await codeOf(system.run(s.id, text('x')))).toBe('SESSION_NOT_CONNECTED')
  })
})

describe('reset and delete', () => {
  it('reset logs a paired device out and starts pairing over with a new QR and deadline', async () => {
    const system = await startSystem()
    const events = fakeEvents()
    const s = await pairedSession(system)
    const before = Date.now()
    await system.resetSession(s.id)
    // The fake link reports on its own channel, which may arrive after the command's reply.
    await waitFor(
      'the device logged out',
      () => events.some(e => e.session === s.id && e.event === 'logout'),
      20_000,
      25,
    )
    const qr = await waitForQr(system, s)
    expect(readQrPng(qr)).toMatch(/^fake-qr:/)
    const snap = snapshotOf(system, s)!
    expect(snap).toMatchObject({ isConnected: false, generatedId: '', name: '' })
    expect(snap.qrDeadline).toBeGreaterThanOrEqual(before + 180_000)
    // And it can be paired again.
    fake(s.id, 'scan')
    await waitFor('paired again', () => snapshotOf(system, s)?.isConnected, 20_000, 25)
  })

  it('reset of an unpaired session gives a new QR and a later deadline', async () => {
    const system = await startSystem({ SESSION_QR_LIFETIME_MS: '60000' })
    const s = await system.createSession()
    const first = await waitForQr(system, s)
    const firstDeadline = snapshotOf(system, s)!.qrDeadline!
    await new Promise(resolve => setTimeout(resolve, 20))
    await system.resetSession(s.id)
    await waitFor(
      'a new QR',
      () => {
        const q = snapshotOf(system, s)?.qrcode
        return q && q !== first
      },
      20_000,
      25,
    )
    expect(snapshotOf(system, s)!.qrDeadline!).toBeGreaterThan(firstDeadline)
  })

  it('delete logs out, removes the session and its data; later calls get 404', async () => {
    const dir = tempDataDir()
    const system = await startSystem({}, dir)
    const events = fakeEvents()
    const s = await pairedSession(system)
    await system.deleteSession(s.id)
    expect(snapshotOf(system, s)).toBeUndefined()
    // The fake link reports on its own channel, which may arrive after the command's reply.
    await waitFor(
      'the device logged out',
      () => events.some(e => e.session === s.id && e.event === 'logout'),
      20_000,
      25,
    )
    expect(await codeOf(system.run(s.id, text('x')))).toBe('SESSION_NOT_FOUND')
    expect(await codeOf(system.deleteSession(s.id))).toBe('SESSION_NOT_FOUND')
    await system.close()
    const store = openLmdbStore(dir)
    try {
      expect(await store.getSession(s.id)).toBeUndefined()
      expect(await store.auth(s.id).readCreds()).toBeUndefined()
    } finally {
      await store.close()
    }
  })
})
