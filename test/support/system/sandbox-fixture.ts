/**
 * @module test/support/system/sandbox-fixture
 * The one world of a sandbox test (test/system/sandbox/): the sandbox in-process, started by the file's beforeAll on
 * the world the file needs and its trust fetched; closed by the afterAll, every client the file opened through the
 * fixture (`login`, `connect`) ended first. The sandbox's side is read as the tests read it: a phone's inbox, the
 * stats, a message awaited on a phone, the faults cleared.
 *
 * @example
 * const world = sandboxFixture({ world: { accounts: namedAccounts({ [ALICE]: 'Alice', [BOB]: 'Bob' }) } })
 * it('delivers', async () => {
 *   const { socket } = await world.login(ALICE)
 *   const sent = await socket.sock.sendMessage(`${BOB}@s.whatsapp.net`, { text: 'hi' })
 *   expect((await world.arrived(BOB, sent?.key.id)).text).toBe('hi')
 * })
 */
import type { UserFacingSocketConfig } from '@whiskeysockets/baileys'
import { afterAll, beforeAll } from 'vitest'
import { createSandbox, type Sandbox, type SandboxOptions } from '../../../src/sandbox/index.js'
import type { InboxMessage, WorldAccount } from '../../../src/sandbox/types.js'
import { waitFor } from '../wait-for.js'
import {
  connect,
  fetchTrust,
  getJson,
  type memoryAuth,
  pairAndLogin,
  type TestSocket,
  type Trust,
} from './baileys-client.js'

/** Accounts by phone and name, as a world lists them: `namedAccounts({ '15550000001': 'Alice' })`. */
export const namedAccounts = (names: Record<string, string>): WorldAccount[] =>
  Object.entries(names).map(([phone, name]) => ({ phone, name }))

export type SandboxFixture = ReturnType<typeof sandboxFixture>

/** Registers the beforeAll and afterAll of a file's sandbox (on loopback, a free port; `options` as createSandbox's). */
export function sandboxFixture(options: Omit<SandboxOptions, 'port'> = {}) {
  const fixture = {
    /** Set by the beforeAll. */
    sandbox: undefined as unknown as Sandbox,
    trust: undefined as unknown as Trust,
    /** Every client opened through the fixture, in order; the afterAll (or `endClients`) ends them. */
    clients: [] as TestSocket[],

    /** Registration, QR, scan, 515 and login of `phone` with an unmodified Baileys client (pairAndLogin). */
    async login(phone: string, extra?: Partial<UserFacingSocketConfig>): ReturnType<typeof pairAndLogin> {
      const paired = await pairAndLogin(fixture.sandbox.url, fixture.trust, phone, extra)
      fixture.clients.push(paired.socket)
      return paired
    },

    /** A Baileys client on `auth` (fresh or already paired), pointed at the sandbox. */
    connect(auth: ReturnType<typeof memoryAuth>, extra?: Partial<UserFacingSocketConfig>): TestSocket {
      const client = connect(fixture.trust, auth, extra)
      fixture.clients.push(client)
      return client
    },

    endClients(): void {
      for (const client of fixture.clients.splice(0)) client.end()
    },

    /** What `phone`'s phone has received (GET /accounts/:phone/inbox). */
    async inboxOf(phone: string): Promise<InboxMessage[]> {
      return (await getJson<{ messages: InboxMessage[] }>(`${fixture.sandbox.url}/accounts/${phone}/inbox`)).messages
    },

    /** The message `id` on `phone`'s phone, once it has arrived and was decrypted. */
    arrived(phone: string, id: string | null | undefined, timeoutMs = 30_000): Promise<InboxMessage> {
      return waitFor(
        `message ${id} on ${phone}'s phone`,
        async () => (await fixture.inboxOf(phone)).find(m => m.id === id),
        timeoutMs,
        100,
      )
    },

    /** GET /stats: the sandbox's counters. */
    stats<T = Record<string, number | undefined>>(): Promise<T> {
      return getJson<T>(`${fixture.sandbox.url}/stats`)
    },

    /** DELETE /faults: every fault switch off. */
    async clearFaults(): Promise<void> {
      await fetch(`${fixture.sandbox.url}/faults`, { method: 'DELETE' })
    },
  }

  beforeAll(async () => {
    fixture.sandbox = await createSandbox({ ...options, port: 0 })
    fixture.trust = await fetchTrust(fixture.sandbox.url)
  })
  afterAll(async () => {
    fixture.endClients()
    await fixture.sandbox?.close()
  })
  return fixture
}
