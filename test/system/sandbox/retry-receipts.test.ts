/**
 * The sandbox's phones ask again for a message they cannot decrypt (fault `failDecryptOf`), as real phones do: a
 * retry receipt shaped like Baileys' own `sendRetryRequest`, answered by the unmodified client, and the copy sent
 * again is accepted, once. With `retryAfterReconnect` the receipt waits for the sending device's next login, where
 * only the client's `getMessage` can answer it (a new socket has nothing in memory).
 */
import type { BinaryNode, WAMessage } from '@whiskeysockets/baileys'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSandbox, type Sandbox } from '../../../src/sandbox/index.js'
import type { InboxMessage } from '../../../src/sandbox/types.js'
import {
  connect,
  fetchTrust,
  getJson,
  pairAndLogin,
  postJson,
  type Trust,
} from '../../support/system/baileys-client.js'
import { waitFor } from '../../support/wait-for.js'

const ALICE = '15550000001'
const BOB = '15550000002'

describe('sandbox: retry receipts', () => {
  let sandbox: Sandbox
  let trust: Trust
  const inbox = async () =>
    (await getJson<{ messages: InboxMessage[] }>(`${sandbox.url}/accounts/${BOB}/inbox`)).messages
  const retryStats = async () =>
    (await getJson<{ retryReceipts?: Record<string, number> }>(`${sandbox.url}/stats`)).retryReceipts ?? {}

  beforeAll(async () => {
    sandbox = await createSandbox({
      port: 0,
      world: {
        accounts: [
          { phone: ALICE, name: 'Alice' },
          { phone: BOB, name: 'Bob' },
        ],
      },
    })
    trust = await fetchTrust(sandbox.url)
  })
  afterAll(async () => {
    await sandbox.close()
  })

  it('asks for the message again with a retry receipt; the copy sent again arrives once', async () => {
    const { socket } = await pairAndLogin(sandbox.url, trust, ALICE)
    try {
      const receipts: BinaryNode[] = []
      socket.sock.ws.on('CB:receipt', (n: BinaryNode) => receipts.push(n))
      const set = await postJson(`${sandbox.url}/faults`, { failDecryptOf: BOB, failDecryptCount: 1 })
      expect(set.body.faults).toMatchObject({ failDecryptOf: BOB, failDecryptCount: 1 })

      const sent = await socket.sock.sendMessage(`${BOB}@s.whatsapp.net`, { text: 'first try fails' })
      const id = sent!.key.id!
      const got = await waitFor(
        'the message sent again',
        async () => (await inbox()).find(m => m.id === id),
        30_000,
        100,
      )
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
        (await getJson<{ faults: Record<string, unknown> }>(`${sandbox.url}/faults`)).faults.failDecryptCount,
      ).toBe(0)
      const next = await socket.sock.sendMessage(`${BOB}@s.whatsapp.net`, { text: 'second goes through' })
      await waitFor('the next message', async () => (await inbox()).find(m => m.id === next!.key.id), 30_000, 100)
      expect((await retryStats())[next!.key.id!]).toBeUndefined()
      await sandbox.settled()
      expect((await inbox()).filter(m => m.id === id)).toHaveLength(1)
    } finally {
      await fetch(`${sandbox.url}/faults`, { method: 'DELETE' })
      socket.end()
    }
  })

  it('with retryAfterReconnect the receipt reaches the sender at its next login, and getMessage answers it', async () => {
    const { socket, auth } = await pairAndLogin(sandbox.url, trust, ALICE)
    const kept = new Map<string, WAMessage>()
    let again: ReturnType<typeof connect> | undefined
    try {
      await postJson(`${sandbox.url}/faults`, { failDecryptOf: BOB, retryAfterReconnect: true })
      const sent = (await socket.sock.sendMessage(`${BOB}@s.whatsapp.net`, { text: 'asked for after a restart' }))!
      kept.set(sent.key.id!, sent)
      await waitFor('the failed decryption', async () => (await retryStats())[sent.key.id!], 30_000, 100)
      await sandbox.settled()
      expect((await inbox()).some(m => m.id === sent.key.id)).toBe(false) // held: the sender is still online
      socket.end()

      again = connect(trust, auth, { getMessage: async key => kept.get(key.id ?? '')?.message ?? undefined })
      await again.opened()
      const got = await waitFor(
        'the message sent again',
        async () => (await inbox()).find(m => m.id === sent.key.id),
        30_000,
        100,
      )
      expect(got).toMatchObject({ text: 'asked for after a restart', from: ALICE })
      await sandbox.settled()
      expect((await inbox()).filter(m => m.id === sent.key.id)).toHaveLength(1)
    } finally {
      await fetch(`${sandbox.url}/faults`, { method: 'DELETE' })
      socket.end()
      again?.end()
    }
  })
})
