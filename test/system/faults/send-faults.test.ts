/**
 * Sends under platform faults, through the real gateway process and the sandbox, checked against what the
 * recipient's phone really decrypted: a connection dropped while sends wait for their acks (each send completes or
 * fails with a clear 500, nothing arrives twice, nothing answered 200 is missing, the session reconnects by itself),
 * and the server's error acks 463 and 479 (500 with the code, no message id, nothing delivered, nothing resent later).
 */
import { describe, expect, it } from 'vitest'
import { ERRORS } from '../../../src/protocol/errors.js'
import { inbox } from '../../support/system/harness.js'
import { pairedGateway } from '../../support/system/paired-gateway.js'
import {
  ALICE,
  BOB,
  auditDelivery,
  clearFaults,
  connected,
  faultWorld,
  sessionWhere,
  setFaults,
  type SendOutcome,
} from '../../support/system/faults.js'
import { waitFor } from '../../support/wait-for.js'

describe('sends under platform faults', () => {
  const paired = pairedGateway(ALICE, {
    start: faultWorld,
    env: { RECONNECT_MIN_MS: '500', RECONNECT_MAX_MS: '2000', ACK_TIMEOUT_MS: '20000' },
    timeoutMs: 180_000,
  })

  const send = async (text: string): Promise<SendOutcome> => {
    const r = await paired.gw.call('POST', '/message', paired.session, { phone: BOB, type: 'text', text })
    return { text, ...r }
  }

  it('a connection dropped while sends await their acks: each completes or fails clearly, none twice, none lost', async () => {
    // Every stanza the platform sends back now waits 1.5 s, so the sends below are still waiting for their acks.
    await setFaults(paired.sandbox.url, { delayMs: 1_500 })
    const texts = Array.from({ length: 5 }, (_, i) => `mid-send ${i} ${Date.now()}`)
    const pending = texts.map(send)
    try {
      await waitFor(
        'the first stanza at the recipient',
        async () => (await inbox(paired.sandbox.url, BOB)).some(m => texts.includes(m.text)) || undefined,
        60_000,
      )
      await setFaults(paired.sandbox.url, { dropSessionOf: ALICE })
    } finally {
      await clearFaults(paired.sandbox.url)
    }
    const outcomes = await Promise.all(pending)
    const got = await auditDelivery(paired.sandbox.url, BOB, outcomes, [
      ERRORS.PLATFORM_CONNECTION_LOST.message,
      ERRORS.SESSION_NOT_CONNECTED.message,
      ERRORS.PLATFORM_TIMEOUT.message,
    ])
    // `session not connected` promises the message never left: it must not have arrived.
    for (const o of outcomes.filter(o => o.body.message === ERRORS.SESSION_NOT_CONNECTED.message)) {
      expect(got.filter(m => m.text === o.text)).toEqual([])
    }
    // The drop really hit sends in flight (else this test proved nothing about them).
    expect(outcomes.some(o => o.status === 500)).toBe(true)

    await connected(paired.gw, paired.session)
    const after = await send(`after the drop ${Date.now()}`)
    expect(after.status).toBe(200)
    await auditDelivery(
      paired.sandbox.url,
      BOB,
      [...outcomes, after],
      [ERRORS.PLATFORM_CONNECTION_LOST.message, ERRORS.SESSION_NOT_CONNECTED.message, ERRORS.PLATFORM_TIMEOUT.message],
    )
  }, 180_000)

  for (const code of [463, 479]) {
    it(`an error ack ${code} is a 500 naming the code, never a message id, and nothing is delivered or resent`, async () => {
      await connected(paired.gw, paired.session)
      await setFaults(paired.sandbox.url, { rejectRecipient: BOB, rejectCode: code })
      let refused: SendOutcome
      try {
        refused = await send(`refused ${code} ${Date.now()}`)
      } finally {
        await clearFaults(paired.sandbox.url)
      }
      expect(refused.status).toBe(500)
      expect(refused.body).toEqual({ statusCode: 500, message: `the platform rejected the message (error ${code})` })
      // The next send arrives; the refused one is not among what arrived before or with it.
      const next = await send(`after refusal ${code} ${Date.now()}`)
      expect(next.status).toBe(200)
      const got = await auditDelivery(paired.sandbox.url, BOB, [next], [])
      expect(got.filter(m => m.text === refused.text)).toEqual([])
      expect((await sessionWhere(paired.gw, paired.session, 'still connected', b => b.isConnected)).isConnected).toBe(
        true,
      )
    }, 90_000)
  }
})
