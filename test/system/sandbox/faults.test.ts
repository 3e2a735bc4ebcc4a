import type { BinaryNode } from '@whiskeysockets/baileys'
import { describe, expect, it } from 'vitest'
import { postJson } from '../../support/system/baileys-client.js'
import { namedAccounts, sandboxFixture } from '../../support/system/sandbox-fixture.js'
import { ALICE, BOB, CAROL } from '../../support/system/sandbox-world.js'
import { waitFor } from '../../support/wait-for.js'

describe('sandbox: fault switches', () => {
  const world = sandboxFixture({
    world: { accounts: namedAccounts({ [ALICE]: 'Alice', [BOB]: 'Bob', [CAROL]: 'Carol' }) },
  })

  it('nacks messages to a rejected recipient with a server error code; DELETE /faults lifts it', async () => {
    const { socket } = await world.login(ALICE)
    try {
      // The raw server ack, as the gateway reads it: Baileys' own messages.update is held back by its event
      // buffer while the initial sync runs, which made this test slow and flaky under load.
      const acks: BinaryNode[] = []
      socket.sock.ws.on('CB:ack,class:message', (node: BinaryNode) => acks.push(node))
      expect((await postJson(`${world.sandbox.url}/faults`, { rejectRecipient: BOB })).status).toBe(200)
      const sent = await socket.sock.sendMessage(`${BOB}@s.whatsapp.net`, { text: 'blocked?' })
      const nack = await waitFor('error ack', () => acks.find(a => a.attrs.id === sent?.key.id), 20_000, 100)
      expect(nack.attrs.error).toBe('479')
      expect((await world.inboxOf(BOB)).some(m => m.id === sent?.key.id)).toBe(false)

      await world.clearFaults()
      const ok = await socket.sock.sendMessage(`${BOB}@s.whatsapp.net`, { text: 'now?' })
      await world.arrived(BOB, ok?.key.id, 20_000)
    } finally {
      socket.end()
    }
  })

  it('delays replies but still answers them', async () => {
    const { socket } = await world.login(CAROL)
    try {
      await postJson(`${world.sandbox.url}/faults`, { delayMs: 300 })
      const groups = await socket.sock.groupFetchAllParticipating()
      expect(groups).toEqual({})
    } finally {
      await world.clearFaults()
      socket.end()
    }
  })

  it('drops a session (the client sees the link lost) and the device can log in again', async () => {
    const { socket, auth } = await world.login(BOB)
    const res = await postJson(`${world.sandbox.url}/faults`, { dropSessionOf: BOB })
    expect(res.body.dropped).toBe(1)
    const closed = await socket.closed()
    expect(closed.statusCode).not.toBe(401)
    const again = world.connect(auth)
    await again.opened()
    again.end()
  })

  it('logs a device out: the client closes with 401 and cannot log in again', async () => {
    const { socket, auth } = await world.login(ALICE)
    const res = await postJson(`${world.sandbox.url}/faults`, { logoutDeviceOf: ALICE })
    expect(res.body.loggedOut).toBeGreaterThanOrEqual(1)
    expect((await socket.closed()).statusCode).toBe(401)
    const again = world.connect(auth)
    expect((await again.closed()).statusCode).toBe(401)
  })
})
