/**
 * POST /typing end to end: the real gateway sends chat states through the unmodified Baileys client and the
 * sandbox's simulated phones record what they would show: 'typing' (composing) or 'recording audio', which goes away
 * ('paused') 5 seconds later (the gateway's default TYPING_MS, i.e. the spec's 5 seconds). A group destination wins
 * over a phone, and the answer is exactly `{ id }`, the session's id.
 */
import { describe, expect, it } from 'vitest'
import { reply, sandboxCall, withSession } from '../../support/system/harness.js'
import { pairedGateway } from '../../support/system/paired-gateway.js'
import { waitFor } from '../../support/wait-for.js'

const ALICE = '15553330001'
const BOB = '15553330002'
const CAROL = '15553330003'
const ERIN = '15553330005' // not in the group
const TEAM = '120363000000333001@g.us'

interface PresenceEvent {
  from: string
  chat: string
  state: string
  at: string
}

async function presence(sandboxUrl: string, phone: string): Promise<PresenceEvent[]> {
  return (await sandboxCall(sandboxUrl, 'GET', `/accounts/${phone}/presence`)).body.events
}

describe('POST /typing through the sandbox', () => {
  const paired = pairedGateway(ALICE, {
    world: {
      accounts: [
        { phone: ALICE, name: 'Alice' },
        { phone: BOB, name: 'Bob' },
        { phone: CAROL, name: 'Carol' },
        { phone: ERIN, name: 'Erin' },
      ],
      groups: [
        {
          id: TEAM,
          name: 'Team',
          participants: [{ phone: ALICE, admin: 'superadmin' }, { phone: BOB }, { phone: CAROL }],
        },
      ],
    },
  })

  /** Alice's chat-state events `phone` saw in `chat` after the first `skip` events, once the pause has arrived. */
  async function untilPaused(phone: string, chat: string, skip: number): Promise<PresenceEvent[]> {
    return waitFor(
      `paused at ${phone}`,
      async () => {
        const events = (await presence(paired.sandbox.url, phone))
          .slice(skip)
          .filter(e => e.from === ALICE && e.chat === chat)
        return events.some(e => e.state === 'paused') ? events : undefined
      },
      30_000,
    )
  }

  const gapMs = (events: PresenceEvent[]) => Date.parse(events[1]!.at) - Date.parse(events[0]!.at)

  it('type text: the recipient sees typing, then it goes away about 5 seconds later; the answer is { id }', async () => {
    const skip = (await presence(paired.sandbox.url, BOB)).length
    const res = await reply(
      paired.gw.api.POST('/typing', withSession(paired.session, { body: { phone: `+${BOB}`, type: 'text' } })),
    )
    expect(res).toEqual({ status: 200, body: { id: paired.session.id } })
    const events = await untilPaused(BOB, ALICE, skip)
    expect(events.map(e => e.state)).toEqual(['composing', 'paused'])
    // the spec's 5 seconds: not gone early, and not left on for long (generous bound for a busy machine)
    expect(gapMs(events)).toBeGreaterThanOrEqual(4_000)
    expect(gapMs(events)).toBeLessThan(15_000)
    expect((await presence(paired.sandbox.url, CAROL)).filter(e => e.from === ALICE)).toEqual([])
  }, 60_000)

  it('type audio: the recipient sees recording audio, then paused; no type means typing', async () => {
    const skip = (await presence(paired.sandbox.url, BOB)).length
    const res = await reply(
      paired.gw.api.POST('/typing', withSession(paired.session, { body: { phone: BOB, type: 'audio' } })),
    )
    expect(res).toEqual({ status: 200, body: { id: paired.session.id } })
    const events = await untilPaused(BOB, ALICE, skip)
    expect(events.map(e => e.state)).toEqual(['recording', 'paused'])
    expect(gapMs(events)).toBeGreaterThanOrEqual(4_000)

    const skipCarol = (await presence(paired.sandbox.url, CAROL)).length
    expect(
      (await reply(paired.gw.api.POST('/typing', withSession(paired.session, { body: { phone: CAROL } })))).body,
    ).toEqual({ id: paired.session.id })
    expect((await untilPaused(CAROL, ALICE, skipCarol)).map(e => e.state)).toEqual(['composing', 'paused'])
  }, 60_000)

  it('group wins over phone: every other member sees typing in the group, the phone sees nothing', async () => {
    const skipBob = (await presence(paired.sandbox.url, BOB)).length
    const skipCarol = (await presence(paired.sandbox.url, CAROL)).length
    const res = await reply(
      paired.gw.api.POST('/typing', withSession(paired.session, { body: { phone: ERIN, group: TEAM, type: 'text' } })),
    )
    expect(res).toEqual({ status: 200, body: { id: paired.session.id } })
    const bob = await untilPaused(BOB, TEAM, skipBob)
    const carol = await untilPaused(CAROL, TEAM, skipCarol)
    expect(bob.map(e => e.state)).toEqual(['composing', 'paused'])
    expect(carol.map(e => e.state)).toEqual(['composing', 'paused'])
    expect(gapMs(bob)).toBeGreaterThanOrEqual(4_000)
    expect(await presence(paired.sandbox.url, ERIN)).toEqual([])
    // the sender does not notify herself
    expect((await presence(paired.sandbox.url, ALICE)).filter(e => e.chat === TEAM)).toEqual([])
  }, 60_000)
})
