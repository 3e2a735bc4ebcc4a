import type { WAMessage } from '@whiskeysockets/baileys'
import { beforeAll, describe, expect, it } from 'vitest'
import { postJson, type TestSocket } from '../../support/system/baileys-client.js'
import { namedAccounts, sandboxFixture } from '../../support/system/sandbox-fixture.js'
import { ALICE, BOB, GROUP } from '../../support/system/sandbox-world.js'
import { waitFor } from '../../support/wait-for.js'

describe('sandbox: two linked clients talk through the platform', () => {
  const world = sandboxFixture({
    world: {
      accounts: namedAccounts({ [ALICE]: 'Alice', [BOB]: 'Bob' }),
      groups: [{ id: GROUP, name: 'Pair', participants: [{ phone: ALICE, admin: 'superadmin' }, { phone: BOB }] }],
    },
  })
  let alice: TestSocket
  let bob: TestSocket
  let bobAuth: Awaited<ReturnType<typeof world.login>>['auth']
  const bobGot: WAMessage[] = []

  beforeAll(async () => {
    alice = (await world.login(ALICE)).socket
    const bobLogin = await world.login(BOB)
    bob = bobLogin.socket
    bobAuth = bobLogin.auth
    bob.sock.ev.on('messages.upsert', ({ messages }) => bobGot.push(...messages))
  })

  it('a 1:1 text reaches both the recipient phone and its linked client', async () => {
    const sent = await alice.sock.sendMessage(`${BOB}@s.whatsapp.net`, { text: 'to both devices' })
    const upsert = await waitFor('Bob client upsert', () => bobGot.find(m => m.key.id === sent?.key.id), 30_000, 100)
    expect(upsert.message?.extendedTextMessage?.text ?? upsert.message?.conversation).toBe('to both devices')
    expect(upsert.key.fromMe).toBe(false)
    expect(upsert.key.remoteJid).toBe(`${ALICE}@s.whatsapp.net`)
    const onPhone = await world.arrived(BOB, sent?.key.id, 20_000)
    expect(onPhone.text).toBe('to both devices')
  })

  it('group messages reach the other participant client (sender key then skmsg only)', async () => {
    const first = await alice.sock.sendMessage(GROUP, { text: 'group one' })
    const second = await alice.sock.sendMessage(GROUP, { text: 'group two' })
    for (const sent of [first, second]) {
      const upsert = await waitFor(
        'group upsert',
        () => bobGot.find(m => m.key.id === sent?.key.id && m.message),
        30_000,
        100,
      )
      expect(upsert.key.remoteJid).toBe(GROUP)
    }
  })

  it('a client that was offline gets what arrived meanwhile on its next login', async () => {
    bob.end()
    await bob.closed()
    const res = await postJson(`${world.sandbox.url}/accounts/${ALICE}/send`, {
      to: BOB,
      text: 'while you were away',
      id: 'SBXOFFLINE1',
    })
    expect(res.body.delivered).toBe(1)
    bob = world.connect(bobAuth)
    const got: WAMessage[] = []
    bob.sock.ev.on('messages.upsert', ({ messages }) => got.push(...messages))
    await bob.opened()
    const msg = await waitFor('offline message', () => got.find(m => m.key.id === 'SBXOFFLINE1'), 30_000, 100)
    expect(msg.message?.conversation).toBe('while you were away')
  })
})
