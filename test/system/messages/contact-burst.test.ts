/**
 * Several sessions of one shard thread sending to the same contact at once: every message answered 200 must
 * decrypt on the contact's phone. libsignal queues the work on one contact address for the whole thread, and a job
 * queued behind another session's used to run in the wrong key-store transaction, so a ratchet step was lost and
 * the next message reused its counter; the phone refused it ("Key used already"), about one burst in three
 * (src/platform/baileys/patches/signal-queue-context.ts; test/unit/platform/baileys/patches/signal-queue-context.test.ts pins the mechanism).
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { ALICE, BOB, CAROL, DAVE, auditDelivery, faultWorld, type SendOutcome } from '../../support/system/faults.js'
import { pair, type Session } from '../../support/system/harness.js'
import { gatewayWorld } from '../../support/system/paired-gateway.js'

describe('bursts from several sessions to one contact', () => {
  // one shard: every session in the same thread, sharing libsignal's queue for Bob's address
  const world = gatewayWorld({ start: faultWorld, env: { SHARDS: '1' } })
  const senders: Session[] = []

  beforeAll(async () => {
    for (const phone of [ALICE, CAROL, DAVE]) {
      const session = await world.gw.createSession()
      await pair(world.gw, world.sandbox.url, session, phone)
      senders.push(session)
    }
  }, 300_000)

  it('every message answered 200 arrives, once, burst after burst', async () => {
    const outcomes: SendOutcome[] = []
    for (let burst = 0; burst < 3; burst++) {
      const stamp = `${Date.now()}-${burst}`
      outcomes.push(
        ...(await Promise.all(
          senders.flatMap((session, k) =>
            Array.from({ length: 10 }, async (_, i) => {
              const text = `burst ${stamp} s${k} #${i}`
              return { text, ...(await world.gw.call('POST', '/message', session, { phone: BOB, type: 'text', text })) }
            }),
          ),
        )),
      )
    }
    expect(outcomes.map(o => o.status)).toEqual(outcomes.map(() => 200))
    const got = await auditDelivery(world.sandbox.url, BOB, outcomes, [])
    for (const o of outcomes) expect(got.find(m => m.id === o.body.messageId)?.error, o.text).toBeUndefined()
  }, 300_000)
})
