/**
 * The platform's restrictions on an account, end to end: the sandbox restricts Alice's account as the platform does
 * (a reach-out timelock, a new-chat cap), the real gateway reads them through unmodified Baileys, shows them in
 * GET /session (a waiting GET wakes), counts them in /metrics, and brakes a 1:1 send or typing to a number Alice
 * has no chat with before any stanza reaches the platform (its count of refused new chats stays put), while chats
 * she has (her own sends, messages she got, chats the history sync listed at pairing), groups and statuses go on. Lifted, new chats go again. A 463 the
 * platform answers to a send mid-burst is not retried (the platform counts one refusal per refused send), and makes
 * the gateway read the restriction it did not know of. Another tenant's session is not braked, and the
 * conversations the brake knows survive a restart.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { parseProm, sumOf } from '../../support/prom-text.js'
import {
  headersOf,
  inbox,
  launchGateway,
  pair,
  sandboxCall,
  type Gateway,
  type Session,
} from '../../support/system/harness.js'
import { pairedGateway } from '../../support/system/paired-gateway.js'
import { connected, sessionWhere } from '../../support/system/faults.js'
import { waitFor } from '../../support/wait-for.js'

const ALICE = '15550000001'
const BOB = '15550000002' // Alice writes to him before the restriction
const CAROL = '15550000003' // never in a chat with Alice
const DAVE = '15550000004' // writes to Alice while she is restricted
const FRANK = '15550000007' // a chat Alice had before pairing: the history sync lists it
const GROUP = '120363100000000077@g.us'

describe('account restrictions', () => {
  const paired = pairedGateway(ALICE, {
    world: {
      accounts: [
        { phone: ALICE, name: 'Alice', statusPrivacy: { setting: 'whitelist', list: [CAROL] }, chats: [FRANK] },
        { phone: BOB, name: 'Bob' },
        { phone: CAROL, name: 'Carol' },
        { phone: DAVE, name: 'Dave' },
      ],
      groups: [{ id: GROUP, name: 'Health', participants: [{ phone: ALICE, admin: 'superadmin' }, { phone: CAROL }] }],
    },
    timeoutMs: 180_000,
  })

  const restrict = async (body: object) => {
    const r = await sandboxCall(paired.sandbox.url, 'POST', `/accounts/${ALICE}/restrictions`, body)
    expect(r.status).toBe(200)
    return r.body
  }
  /** Each test starts from an unrestricted, connected account, whatever the one before left. */
  beforeEach(async () => {
    if (!paired.session) return
    await connected(paired.gw, paired.session)
    await restrict({ reachoutTimelock: { active: false }, newChatCap: { status: 'NONE', used: 0, total: 0 } })
    await sessionWhere(
      paired.gw,
      paired.session,
      'no restriction',
      b => b.restrictions?.reachoutTimelock.active === false && b.restrictions?.newChatCap.status === 'NONE',
    )
  })
  const refusedNewChats = async (): Promise<number> =>
    (await sandboxCall(paired.sandbox.url, 'GET', `/accounts/${ALICE}/restrictions`)).body.refusedNewChats
  /** A POST with its Retry-After (the typed client's replies carry no headers). */
  const post = async (gw: Gateway, s: Session, route: string, body: object) => {
    const res = await fetch(`${gw.url}${route}`, {
      method: 'POST',
      headers: { ...headersOf(s), 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as any }
  }
  const text = (phone: string, words: string) =>
    post(paired.gw, paired.session, '/message', { phone, type: 'text', text: words })
  const restrictedMetric = async (kind: string) =>
    sumOf(parseProm(await (await fetch(`${paired.gw.url}/metrics`)).text()), 'gateway_restricted_sessions', { kind })

  it('a reach-out timelock shows in GET /session, brakes new chats only, and lifts', async () => {
    const s = paired.session
    const unrestricted = await sessionWhere(paired.gw, s, 'restrictions read at connect', b => !!b.restrictions)
    expect(unrestricted.restrictions).toEqual({
      reachoutTimelock: { active: false, until: null, enforcementType: null },
      newChatCap: { status: 'NONE', used: 0, total: 0, cycleEndsAt: null },
    })
    expect((await text(BOB, 'before the timelock')).status).toBe(200)

    // a waiting GET /session holding the current ETag wakes when the restriction arrives
    const current = await fetch(`${paired.gw.url}/session`, { headers: headersOf(s) })
    const etag = current.headers.get('etag') ?? ''
    const waiting = fetch(`${paired.gw.url}/session?wait=30`, { headers: { ...headersOf(s), 'if-none-match': etag } })
    const until = new Date(Math.floor(Date.now() / 1000) * 1000 + 3_600_000).toISOString()
    await restrict({ reachoutTimelock: { active: true, until, enforcementType: 'BIZ_QUALITY' } })
    const woken = await waiting
    expect(woken.status).toBe(200)
    expect(woken.headers.get('etag')).not.toBe(etag)
    const shown = await sessionWhere(paired.gw, s, 'timelock shown', b => b.restrictions?.reachoutTimelock.active)
    expect(shown.restrictions.reachoutTimelock).toEqual({ active: true, until, enforcementType: 'BIZ_QUALITY' })
    expect(await restrictedMetric('reachout-timelock')).toBe(1)

    // a new chat is braked before it reaches the platform: text, media-less contact card, typing
    const refusedBefore = await refusedNewChats()
    const braked = await text(CAROL, 'a new chat')
    expect(braked.status).toBe(429)
    expect(braked.body.message).toMatch(new RegExp(`^account restricted: reach-out timelock until ${until}`))
    expect(Number(braked.retryAfter)).toBeGreaterThan(3_500)
    expect(Number(braked.retryAfter)).toBeLessThanOrEqual(3_600)
    const card = await post(paired.gw, s, '/message', {
      phone: CAROL,
      type: 'contact',
      contact: { name: 'B', phone: BOB },
    })
    expect(card.status).toBe(429)
    const typing = await post(paired.gw, s, '/typing', { phone: CAROL })
    expect(typing.status).toBe(429)

    // existing chats (Alice's own send, a message she received), groups and statuses go on
    expect((await text(BOB, 'existing chat')).status).toBe(200)
    expect((await text(FRANK, 'a chat from before pairing')).status).toBe(200)
    await sandboxCall(paired.sandbox.url, 'POST', `/accounts/${DAVE}/send`, { to: ALICE, text: 'hello Alice' })
    const toDave = await waitFor('Dave’s message known to the gateway', async () => {
      const r = await text(DAVE, 'reply to Dave')
      return r.status === 200 ? r : undefined
    })
    expect(toDave.status).toBe(200)
    expect((await post(paired.gw, s, '/message', { group: GROUP, type: 'text', text: 'group' })).status).toBe(200)
    const status = await post(paired.gw, s, '/status', { type: 'text', text: 'a status' })
    expect(status.status).toBe(200)
    expect(await refusedNewChats()).toBe(refusedBefore)
    const carolGot = await waitFor('the group message and status at Carol', async () => {
      const got = await inbox(paired.sandbox.url, CAROL)
      return got.length >= 2 ? got : undefined
    })
    expect(carolGot.filter((m: any) => m.chat === CAROL || m.chat === ALICE)).toEqual([])
    expect((await sandboxCall(paired.sandbox.url, 'GET', `/accounts/${CAROL}/presence`)).body.events).toEqual([])

    // lifted: new chats go again
    await restrict({ reachoutTimelock: { active: false } })
    await sessionWhere(paired.gw, s, 'timelock lifted', b => b.restrictions?.reachoutTimelock.active === false)
    expect(await restrictedMetric('reachout-timelock')).toBe(0)
    expect((await text(CAROL, 'now a new chat')).status).toBe(200)
  }, 180_000)

  it('a capped new-chat cap brakes new chats (403 without a known end, 429 with one) and lifts', async () => {
    const s = paired.session
    const erin = '15550000005'
    await restrict({ newChatCap: { status: 'CAPPED', used: 20, total: 20 } })
    const capped = await sessionWhere(paired.gw, s, 'cap shown', b => b.restrictions?.newChatCap.status === 'CAPPED')
    expect(capped.restrictions.newChatCap).toEqual({ status: 'CAPPED', used: 20, total: 20, cycleEndsAt: null })
    expect(await restrictedMetric('new-chat-cap')).toBe(1)
    const refusedBefore = await refusedNewChats()
    const noEnd = await text(erin, 'new chat under the cap')
    expect(noEnd.status).toBe(403)
    expect(noEnd.body.message).toBe(
      'account restricted: new chat cap reached with no end known; no new chats until it is lifted',
    )

    const cycleEndsAt = new Date(Math.floor(Date.now() / 1000) * 1000 + 600_000).toISOString()
    await restrict({ newChatCap: { status: 'CAPPED', used: 20, total: 20, cycleEndsAt } })
    await sessionWhere(paired.gw, s, 'cycle end shown', b => b.restrictions?.newChatCap.cycleEndsAt === cycleEndsAt)
    const withEnd = await text(erin, 'new chat under the cap')
    expect(withEnd.status).toBe(429)
    expect(withEnd.body.message).toMatch(new RegExp(`^account restricted: new chat cap reached until ${cycleEndsAt}`))
    expect(Number(withEnd.retryAfter)).toBeGreaterThan(500)
    expect((await text(BOB, 'existing chat under the cap')).status).toBe(200)
    expect(await refusedNewChats()).toBe(refusedBefore)

    await restrict({ newChatCap: { status: 'FIRST_WARNING', used: 3, total: 20 } })
    await sessionWhere(paired.gw, s, 'warning shown', b => b.restrictions?.newChatCap.status === 'FIRST_WARNING')
    expect(await restrictedMetric('new-chat-cap-warning')).toBe(1)
    expect((await text(erin, 'a new chat under a warning')).status).toBe(200)
  }, 120_000)

  it('a 463 on a send (the restriction set mid-burst) is not retried and refreshes the restriction', async () => {
    const s = paired.session
    const refusedBefore = await refusedNewChats()
    const until = new Date(Math.floor(Date.now() / 1000) * 1000 + 3_600_000).toISOString()
    const outcomes: Array<{ status: number; message?: string }> = []
    for (let i = 0; i < 6; i++) {
      // set mid-burst without the platform's notification: the gateway learns of it only from the 463
      if (i === 2) await restrict({ reachoutTimelock: { active: true, until }, notify: false })
      const r = await text(`1555000010${i}`, `burst ${i}`)
      outcomes.push({ status: r.status, message: r.body.message })
    }
    expect(outcomes.slice(0, 2).map(o => o.status)).toEqual([200, 200])
    expect(outcomes[2]).toEqual({ status: 500, message: 'the platform rejected the message (error 463)' })
    const rejected = outcomes.filter(o => o.message === 'the platform rejected the message (error 463)')
    // read again after the 463: the sends that follow are braked here
    await sessionWhere(
      paired.gw,
      s,
      'timelock read after the 463',
      b => b.restrictions?.reachoutTimelock.until === until,
    )
    expect(outcomes.at(-1)?.status).toBe(429)
    // a send on the same connection after the burst: a retried stanza would have reached the platform before it
    expect((await text(BOB, 'after the burst')).status).toBe(200)
    expect(await refusedNewChats()).toBe(refusedBefore + rejected.length)
  }, 120_000)

  it('a timelock that ends by itself is read again once its end passed, and new chats go', async () => {
    const s = paired.session
    const until = new Date(Math.ceil(Date.now() / 1000) * 1000 + 3_000).toISOString()
    await restrict({ reachoutTimelock: { active: true, until } })
    await sessionWhere(paired.gw, s, 'short timelock shown', b => b.restrictions?.reachoutTimelock.until === until)
    expect((await text('15550000200', 'during the short timelock')).status).toBe(429)
    // no notification lifts it: the gateway asks again after the end it was given
    await sessionWhere(paired.gw, s, 'timelock over', b => b.restrictions?.reachoutTimelock.active === false, 20_000)
    expect((await text('15550000200', 'after the short timelock')).status).toBe(200)
  }, 60_000)

  it("one account's restriction brakes no other session, and its conversations survive a restart", async () => {
    // a neighbour: another tenant's session on the same gateway, unrestricted
    const erin = '15550000006'
    const neighbour = await paired.gw.createSession()
    await pair(paired.gw, paired.sandbox.url, neighbour, erin)
    const until = new Date(Math.floor(Date.now() / 1000) * 1000 + 3_600_000).toISOString()
    await restrict({ reachoutTimelock: { active: true, until } })
    await sessionWhere(paired.gw, paired.session, 'timelock shown', b => b.restrictions?.reachoutTimelock.active)
    const theirs = await post(paired.gw, neighbour, '/message', { phone: '15550000300', type: 'text', text: 'hi' })
    expect(theirs.status).toBe(200)
    const neighbourView = await sessionWhere(paired.gw, neighbour, 'neighbour read', b => !!b.restrictions)
    expect(neighbourView.restrictions.reachoutTimelock.active).toBe(false)

    // restarted, Alice still writes to Bob (a stored conversation) and still may not start new chats
    expect(await paired.gw.proc.stop()).toBe(0)
    paired.gw = await launchGateway(paired.sandbox.url, paired.dataDir)
    await sessionWhere(
      paired.gw,
      paired.session,
      'timelock read after the restart',
      b => b.restrictions?.reachoutTimelock.active,
    )
    expect((await text(BOB, 'after the restart')).status).toBe(200)
    expect((await text('15550000301', 'a new chat after the restart')).status).toBe(429)
  }, 180_000)
})
