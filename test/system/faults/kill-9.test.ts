/**
 * `kill -9` of the whole gateway in the middle of a burst of sends, then a start on the same DATA_DIR: every paired
 * session connects again as the same device with no new scan, an unpaired one still awaits its QR, every session
 * still answers GET /session with its credentials, and the recipient's phone shows every send answered 200 exactly
 * once and no send twice (a send cut by the kill may or may not have arrived; it never arrives twice).
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { launchGateway, pair, inbox, type Session } from '../../support/system/harness.js'
import { gatewayWorld, pairedGateway } from '../../support/system/paired-gateway.js'
import {
  ALICE,
  BOB,
  CAROL,
  DAVE,
  auditDelivery,
  connected,
  faultWorld,
  type SendOutcome,
} from '../../support/system/faults.js'
import { waitFor } from '../../support/wait-for.js'

describe('kill -9 during a burst of sends, then a start', () => {
  const world = gatewayWorld({ start: faultWorld })
  const paired: { session: Session; phone: string; generatedId: string }[] = []
  let waiting: Session

  beforeAll(async () => {
    for (const phone of [ALICE, CAROL, DAVE]) {
      const session = await world.gw.createSession()
      const up = await pair(world.gw, world.sandbox.url, session, phone)
      paired.push({ session, phone, generatedId: up.generatedId })
    }
    waiting = await world.gw.createSession()
  }, 300_000)

  it('comes back with every session connected and storage intact; nothing sent twice', async () => {
    let answered!: () => void
    const firstAnswer = new Promise<void>(resolve => {
      answered = resolve
    })
    const send = async (s: Session, text: string): Promise<SendOutcome> => {
      try {
        const outcome = { text, ...(await world.gw.call('POST', '/message', s, { phone: BOB, type: 'text', text })) }
        if (outcome.status === 200) answered()
        return outcome
      } catch {
        return { text, status: 0, body: undefined } // the process died before answering: outcome unknown
      }
    }
    const stamp = Date.now()
    const burst = paired.flatMap(({ session }, k) =>
      Array.from({ length: 20 }, (_, i) => send(session, `burst ${stamp} s${k} #${i}`)),
    )
    // Kill as soon as the platform acknowledged the first message of the burst: the rest are on their way. (Waiting
    // to see it in the recipient's inbox let a whole burst finish before the kill now and then.)
    await Promise.race([firstAnswer, Promise.all(burst)])
    expect(await world.gw.proc.stop('SIGKILL')).toBe(null)
    const outcomes = await Promise.all(burst)
    expect(outcomes.some(o => o.status === 0)).toBe(true) // the kill really cut the burst

    world.gw = await launchGateway(world.sandbox.url, world.dataDir)
    for (const p of paired) {
      const back = await connected(world.gw, p.session, 120_000)
      expect(back.generatedId).toBe(p.generatedId)
    }
    const stillWaiting = await world.gw.session(waiting)
    expect(stillWaiting.status).toBe(200)
    expect(stillWaiting.body).toMatchObject({ isConnected: false, generatedId: '' })

    // Each session sends again; then the audit: every 200 arrived once, nothing arrived twice.
    const after: SendOutcome[] = []
    for (const [k, p] of paired.entries()) after.push(await send(p.session, `after restart ${stamp} s${k}`))
    for (const o of after) expect(o.status).toBe(200)
    const unknown = outcomes.filter(o => o.status === 0).map(o => o.text)
    await auditDelivery(world.sandbox.url, BOB, [...outcomes.filter(o => o.status !== 0), ...after], [])
    const got = await inbox(world.sandbox.url, BOB)
    for (const text of unknown) expect(got.filter(m => m.text === text).length).toBeLessThanOrEqual(1)
  }, 400_000)
})

/**
 * The same for a group: a group send advances our own sender key, which Baileys also commits only after the
 * message left. After any kill the gateway makes a new sender key and hands it to every member before its first
 * group message (src/platform/baileys/signal-recovery), so that message decrypts for each of them whether or not the kill
 * cut a send between leaving and committing: this test runs that renewal end to end.
 */
describe('kill -9 during a burst of group sends, then a start', () => {
  const GROUP = '120363000000000077@g.us'
  const paired = pairedGateway(ALICE, {
    start: faultWorld,
    world: {
      groups: [
        {
          id: GROUP,
          name: 'Crash test',
          participants: [{ phone: ALICE, admin: 'superadmin' }, { phone: BOB }, { phone: CAROL }],
        },
      ],
    },
    timeoutMs: 300_000,
  })

  it('the first group message after the restart decrypts for every member', async () => {
    const stamp = Date.now()
    const burst = Array.from({ length: 12 }, (_, i) =>
      paired.gw
        .call('POST', '/message', paired.session, { group: GROUP, type: 'text', text: `group burst ${stamp} #${i}` })
        .catch(() => undefined),
    )
    await waitFor(
      'the group burst under way',
      async () =>
        (await inbox(paired.sandbox.url, BOB)).some(m => String(m.text).startsWith(`group burst ${stamp}`)) ||
        undefined,
      60_000,
    )
    expect(await paired.gw.proc.stop('SIGKILL')).toBe(null)
    await Promise.all(burst)

    paired.gw = await launchGateway(paired.sandbox.url, paired.dataDir)
    await connected(paired.gw, paired.session, 120_000)
    const after = await paired.gw.call('POST', '/message', paired.session, {
      group: GROUP,
      type: 'text',
      text: `group after restart ${stamp}`,
    })
    expect(after.status).toBe(200)
    for (const member of [BOB, CAROL]) {
      const got = await waitFor(
        `the message at ${member}`,
        async () => (await inbox(paired.sandbox.url, member)).find(m => m.id === after.body.messageId),
        60_000,
      )
      expect(got.error).toBeUndefined()
      expect(got).toMatchObject({ text: `group after restart ${stamp}`, chat: GROUP })
    }
  }, 400_000)
})
