/**
 * A client that messages a contact by LID keeps its Signal sessions: the sandbox answers a device query under the
 * JID asked for (by default, as the platform does), so Baileys' device cache hits and it fetches key bundles (GET /stats `bundleFetches`) only for
 * the first message, not for every one (which cost a round trip and a new session per send).
 */
import { describe, expect, it } from 'vitest'
import { getJson } from '../../support/system/baileys-client.js'
import { sandboxFixture } from '../../support/system/sandbox-fixture.js'
import { waitFor } from '../../support/wait-for.js'

const ALICE = '15550002001'
const BOB = '15550002002'

describe('sessions with a contact addressed by LID', () => {
  const world = sandboxFixture({ world: { accounts: [{ phone: ALICE }, { phone: BOB }] } })

  it('are set up once, not for every message', async () => {
    const alice = (await world.login(ALICE)).socket
    const bobLid = (await getJson<{ lid: string }>(`${world.sandbox.url}/accounts/${BOB}/lid`)).lid
    const fetches = async () => (await world.stats()).bundleFetches ?? 0
    const ids: string[] = []
    let afterFirst = 0
    for (let i = 0; i < 4; i++) {
      ids.push(
        (await alice.sock.sendMessage(bobLid.includes('@') ? bobLid : `${bobLid}@lid`, { text: `hi ${i}` }))!.key.id!,
      )
      if (i === 0) afterFirst = await fetches()
    }
    expect(afterFirst).toBeGreaterThan(0)
    expect(await fetches()).toBe(afterFirst)
    const inbox = await waitFor(
      'all four in Bob inbox',
      async () => {
        const got = await world.inboxOf(BOB)
        return ids.every(id => got.some(m => m.id === id)) ? got : undefined
      },
      20_000,
      100,
    )
    expect(inbox.filter(m => ids.includes(m.id)).map(m => m.text)).toEqual(['hi 0', 'hi 1', 'hi 2', 'hi 3'])
  })
})
