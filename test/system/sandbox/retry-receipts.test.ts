/**
 * The sandbox's phones ask again for a message they cannot decrypt (fault `failDecryptOf`), as real phones do: a
 * retry receipt shaped like Baileys' own `sendRetryRequest`, answered by the unmodified client, and the copy sent
 * again is accepted, once. With `retryAfterReconnect` the receipt waits for the sending device's next login, where
 * only the client's `getMessage` can answer it (a new socket has nothing in memory).
 */
import type { BinaryNode, WAMessage } from '@whiskeysockets/baileys'
import { describe, expect, it } from 'vitest'
import { getJson, postJson, type TestSocket } from '../../support/system/baileys-client.js'
import { namedAccounts, sandboxFixture } from '../../support/system/sandbox-fixture.js'
import { ALICE, BOB } from '../../support/system/sandbox-world.js'
import { waitFor } from '../../support/wait-for.js'

describe('sandbox: retry receipts', () => {
  const world = sandboxFixture({ world: { accounts: namedAccounts({ [ALICE]: 'Alice', [BOB]: 'Bob' }) } })
  const inbox = () => world.inboxOf(BOB)
  const retryStats = async () => (await world.stats<{ retryReceipts?: Record<string, number> }>()).retryReceipts ?? {}

  it('asks for the message again with a retry receipt; the copy sent again arrives once', async () => {
    const { socket } = await world.login(ALICE)
    try {
      const receipts: BinaryNode[] = []
      socket.sock.ws.on('CB:receipt', (n: BinaryNode) => receipts.push(n))
      const set = await postJson(`${world.sandbox.url}/faults`, { failDecryptOf: BOB, failDecryptCount: 1 })
      expect(set.body.faults).toMatchObject({ failDecryptOf: BOB, failDecryptCount: 1 })

      const sent = await socket.sock.sendMessage(`${BOB}@s.whatsapp.net`, { text: 'first try fails' })
      const id = sent!.key.id!
      const got = await world.arrived(BOB, id)
      expect(got).toMatchObject({ text: 'first try fails', from: ALICE })
      expect((await retryStats())[id]).toBe(1)

      const retry = receipts.find(r => r.attrs.type === 'retry' && r.attrs.id === id)!
      expect(retry.attrs.from).toBe(`${BOB}@s.whatsapp.net`)
      expect(retry.attrs.recipient).toBeUndefined()
      const children = retry.content as BinaryNode[]
      expect(children.find(c => c.tag === 'retry')?.attrs).toMatchObject({ count: '1', id, v: '1' })
      const registration = children.find(c => c.tag === 'registration')?.content as Uint8Array
      expect(registration).toHaveLength(4)

      // the count ran out: the next message is decrypted at the first try
      expect(
        (await getJson<{ faults: Record<string, unknown> }>(`${world.sandbox.url}/faults`)).faults.failDecryptCount,
      ).toBe(0)
      const next = await socket.sock.sendMessage(`${BOB}@s.whatsapp.net`, { text: 'second goes through' })
      await world.arrived(BOB, next!.key.id)
      expect((await retryStats())[next!.key.id!]).toBeUndefined()
      await world.sandbox.settled()
      expect((await inbox()).filter(m => m.id === id)).toHaveLength(1)
    } finally {
      await world.clearFaults()
      socket.end()
    }
  })

  it('with retryAfterReconnect the receipt reaches the sender at its next login, and getMessage answers it', async () => {
    const { socket, auth } = await world.login(ALICE)
    const kept = new Map<string, WAMessage>()
    let again: TestSocket | undefined
    try {
      await postJson(`${world.sandbox.url}/faults`, { failDecryptOf: BOB, retryAfterReconnect: true })
      const sent = (await socket.sock.sendMessage(`${BOB}@s.whatsapp.net`, { text: 'asked for after a restart' }))!
      kept.set(sent.key.id!, sent)
      await waitFor('the failed decryption', async () => (await retryStats())[sent.key.id!], 30_000, 100)
      await world.sandbox.settled()
      expect((await inbox()).some(m => m.id === sent.key.id)).toBe(false) // held: the sender is still online
      socket.end()

      again = world.connect(auth, { getMessage: async key => kept.get(key.id ?? '')?.message ?? undefined })
      await again.opened()
      const got = await world.arrived(BOB, sent.key.id)
      expect(got).toMatchObject({ text: 'asked for after a restart', from: ALICE })
      await world.sandbox.settled()
      expect((await inbox()).filter(m => m.id === sent.key.id)).toHaveLength(1)
    } finally {
      await world.clearFaults()
      socket.end()
      again?.end()
    }
  })
})
