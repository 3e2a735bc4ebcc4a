/**
 * The recovering key store after an unclean stop (src/platform/baileys/signal-recovery/recovering-keys.ts):
 * it renews what a crash may have left behind the recipients (1:1 sessions, our own group sender keys) while keeping
 * what others send us decryptable. How a crash is told from a clean stop is ./run-marker.test.ts; the end-to-end
 * proof is test/system/faults/kill-9.test.ts; these pin the rules.
 */
import { initAuthCreds, type SignalDataTypeMap } from '@whiskeysockets/baileys'
import pino from 'pino'
import { describe, expect, it } from 'vitest'
import {
  recoveringKeys,
  parseSenderKeyName,
} from '../../../../../src/platform/baileys/signal-recovery/recovering-keys.js'
import type { RecoveryState } from '../../../../../src/platform/baileys/signal-recovery/run-marker.js'
import { memoryAuthStore } from '../../../../support/fakes/memory-stores.js'

const log = pino({ level: 'silent' })
const GROUP = '120363000000000001@g.us'
const ME = '15550000001:3@s.whatsapp.net'
const MY_LID = '99887766:3@lid'

/** A stored libsignal session record with one session per [created, closed] pair. */
const record = (...sessions: [number, number][]) => ({
  version: 'v1',
  _sessions: Object.fromEntries(
    sessions.map(([created, closed], i) => [`base${i}`, { indexInfo: { created, closed, used: created } }]),
  ),
})
const closedOf = (r: unknown) => Object.values((r as ReturnType<typeof record>)._sessions).map(s => s.indexInfo.closed)

async function pairedStore() {
  const auth = memoryAuthStore()
  const creds = initAuthCreds()
  creds.me = { id: ME, lid: MY_LID, name: 'Alice' }
  await auth.writeCreds(creds)
  return auth
}

describe('recoveringKeys', () => {
  const setup = async () => {
    const auth = await pairedStore()
    const state: RecoveryState = { staleBefore: 5_000, renewedKeys: [], renewedGroups: [] }
    const saved: RecoveryState[] = []
    const keys = recoveringKeys(auth, {
      state,
      save: async s => {
        saved.push(structuredClone(s))
      },
      log,
      now: () => 9_000,
    })
    return { auth, keys, saved }
  }

  it('closes 1:1 sessions opened before the unclean stop as they are read, for good, and leaves newer ones open', async () => {
    const { auth, keys } = await setup()
    await auth.keys.set({
      session: { 'bob.0': record([1_000, -1], [500, 700]), 'carol.0': record([6_000, -1]) } as unknown as Record<
        string,
        SignalDataTypeMap['session']
      >,
    })
    const read = await keys.get('session', ['bob.0', 'carol.0'])
    expect(closedOf(read['bob.0'])).toEqual([9_000, 700]) // no open session left: Baileys fetches a new bundle
    expect(closedOf(read['carol.0'])).toEqual([-1]) // made after the stop: in use
    const stored = await auth.keys.get('session', ['bob.0']) // written back: a later read of the plain store agrees
    expect(closedOf(stored['bob.0'])).toEqual([9_000, 700])
  })

  it("hides our own group sender key and the group's key memory until a new key is made, and keeps other senders' keys", async () => {
    const { auth, keys, saved } = await setup()
    const mine = `${GROUP}::15550000001::3`
    const mineByLid = `${GROUP}::99887766_1::3`
    const phones = `${GROUP}::15550000001::0` // our own phone's key (device 0): received, not ours to renew
    const bobs = `${GROUP}::15550000002::0`
    const old = Buffer.from('old')
    await auth.keys.set({
      'sender-key': { [mine]: old, [mineByLid]: old, [phones]: old, [bobs]: old },
      'sender-key-memory': { [GROUP]: { 'bob@s.whatsapp.net': true } },
    })

    expect(Object.keys(await keys.get('sender-key', [mine, mineByLid, phones, bobs]))).toEqual([phones, bobs])
    expect(await keys.get('sender-key-memory', [GROUP])).toEqual({}) // so the new key goes to every member device

    await keys.set({ 'sender-key': { [mine]: Buffer.from('new') } }) // Baileys made a new key
    expect(saved.at(-1)).toEqual({ staleBefore: 5_000, renewedKeys: [mine], renewedGroups: [GROUP] })
    expect((await keys.get('sender-key', [mine]))[mine]).toEqual(Buffer.from('new'))
    await keys.set({ 'sender-key-memory': { [GROUP]: { 'bob@s.whatsapp.net': true, 'carol@s.whatsapp.net': true } } })
    expect(await keys.get('sender-key-memory', [GROUP])).toEqual({
      [GROUP]: { 'bob@s.whatsapp.net': true, 'carol@s.whatsapp.net': true },
    })
    expect(saved).toHaveLength(1) // later writes of a renewed key are not renewals
  })

  it('parses sender key names, including LID senders', () => {
    expect(parseSenderKeyName(`${GROUP}::99887766_1::3`)).toEqual({ group: GROUP, user: '99887766', device: '3' })
    expect(parseSenderKeyName('status@broadcast::15550000001::0')).toEqual({
      group: 'status@broadcast',
      user: '15550000001',
      device: '0',
    })
    expect(parseSenderKeyName('nonsense')).toBeUndefined()
  })
})
