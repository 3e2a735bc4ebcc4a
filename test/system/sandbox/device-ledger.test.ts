/**
 * @module test/system/sandbox/device-ledger
 * The sandbox's per-device ledger (GET /devices, totals in GET /stats) as the cluster tests will read it, driven by
 * the unmodified Baileys client: a pairing is one login; a reconnect after the old socket closed is a second login
 * and no kick; a second login while the first connection is live kicks that one with a 440, and what the kicked
 * connection writes afterwards (like a node resumed after SIGSTOP, before it read the 440) is counted and never
 * delivered to the phone it was addressed to.
 */
import type { WebSocket } from 'ws'
import { describe, expect, it } from 'vitest'
import type { PresenceEvent } from '../../../src/sandbox/types.js'
import { getJson, type memoryAuth, type TestSocket } from '../../support/system/baileys-client.js'
import { namedAccounts, sandboxFixture } from '../../support/system/sandbox-fixture.js'
import { sandboxDevices } from '../../support/system/sandbox-devices.js'
import { waitFor } from '../../support/wait-for.js'

const ALICE = '15550000041'
const BOB = '15550000042'
const BOB_JID = `${BOB}@s.whatsapp.net`

/**
 * Stops the client reading its socket, as a SIGSTOPped gateway node does: the sandbox's 440 waits unread, while what
 * the client writes still goes out. Baileys keeps its ws WebSocket in a protected field; ws' own pause() is used.
 */
function stopReading(socket: TestSocket): void {
  ;(socket.sock.ws as unknown as { socket: WebSocket }).socket.pause()
}

/** Alice's one device after `logins` logins from loopback, never kicked. */
const aliceLine = (device: string, logins: number) => ({
  device,
  account: ALICE,
  logins,
  replacedKicks: 0,
  supersededStanzas: 0,
  loginsFrom: { '127.0.0.1': logins },
  name: 'Mac OS', // what the client registered as (Baileys' browser name)
  presence: expect.any(Object), // what it announced at connect, if it got that far yet
})

describe('sandbox: per-device ledger of logins, 440 kicks and superseded stanzas', () => {
  const world = sandboxFixture({ world: { accounts: namedAccounts({ [ALICE]: 'Alice', [BOB]: 'Bob' }) } })
  let auth: ReturnType<typeof memoryAuth>
  let device = ''
  const stats = () => world.stats()
  const bobInbox = () => world.inboxOf(BOB)
  const aliceTyping = async () =>
    (await getJson<{ events: PresenceEvent[] }>(`${world.sandbox.url}/accounts/${BOB}/presence`)).events.filter(
      e => e.from === ALICE && e.state === 'composing',
    )

  it('one pairing is one login and no kick', async () => {
    const paired = await world.login(ALICE)
    auth = paired.auth
    device = paired.auth.creds.me?.id ?? ''
    expect(device).toMatch(new RegExp(`^${ALICE}:\\d+@s\\.whatsapp\\.net$`))
    expect(await sandboxDevices(world.sandbox.url)).toEqual([aliceLine(device, 1)])
  })

  it('a reconnect after the old socket closed is a second login, still no kick', async () => {
    const first = world.clients.at(-1) as TestSocket
    first.end()
    await first.closed()
    // The sandbox must have seen the close before the next login, or that login would replace a live connection.
    await waitFor('the sandbox to see the socket close', async () => ((await stats()).loginsEnded ?? 0) >= 1)
    const again = world.connect(auth)
    await again.opened()
    expect(await sandboxDevices(world.sandbox.url, ALICE)).toEqual([aliceLine(device, 2)])
  })

  it('a second login while the first is live kicks the older connection once; what it writes after is counted and dropped', async () => {
    const older = world.clients.at(-1) as TestSocket
    // A first text while still alone: Baileys then holds Bob's device list and session, so its late send below
    // needs no answer from the server (the stopped client reads none) and goes out as one message stanza.
    const warm = await older.sock.sendMessage(BOB_JID, { text: 'before the move' })
    await waitFor('the first text on Bob phone', async () => (await bobInbox()).some(m => m.id === warm?.key.id))

    stopReading(older)
    const newer = world.connect(auth)
    await newer.opened()
    await waitFor('the kick', async () => (await sandboxDevices(world.sandbox.url, ALICE))[0]?.replacedKicks === 1)

    // The old node wakes and writes before it reads the 440. Each stanza it writes is counted: the chat state alone
    // first (nothing else is written meanwhile), then the text (Baileys may follow it with its privacy-token iq).
    const superseded = async () => (await sandboxDevices(world.sandbox.url, ALICE))[0]?.supersededStanzas ?? 0
    await older.sock.sendPresenceUpdate('composing', BOB_JID)
    await waitFor('the chat state counted', async () => (await superseded()) >= 1)
    expect(await superseded()).toBe(1)
    const late = await older.sock.sendMessage(BOB_JID, { text: 'from the superseded connection' })
    await waitFor('the text counted', async () => (await superseded()) >= 2)
    const [line] = await sandboxDevices(world.sandbox.url, ALICE)
    expect(line).toMatchObject({ device, account: ALICE, logins: 3, replacedKicks: 1 })

    // The same two from the live connection do arrive, so their absence above is the drop, not a slow phone.
    await newer.sock.sendPresenceUpdate('composing', BOB_JID)
    const live = await newer.sock.sendMessage(BOB_JID, { text: 'from the new connection' })
    await waitFor('the live text on Bob phone', async () => (await bobInbox()).some(m => m.id === live?.key.id))
    await world.sandbox.settled()
    expect((await bobInbox()).map(m => m.text)).toEqual(['before the move', 'from the new connection'])
    expect((await bobInbox()).some(m => m.id === late?.key.id)).toBe(false)
    expect(await aliceTyping()).toHaveLength(1)

    const totals = await stats()
    expect([totals.logins, totals.replacedKicks, totals.supersededStanzas]).toEqual([3, 1, await superseded()])
    // two waits of up to 30 s each in a row: a slow machine gets each wait's own failure message, not the test's
  }, 120_000)
})
