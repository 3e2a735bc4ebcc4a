/**
 * A retry receipt that reaches the running gateway (no restart), with the default RETRY_STORE_MAX_MESSAGES: the
 * recipient's phone cannot decrypt a text and asks for it again within seconds. Baileys answered this from its own
 * memory of the last 512 messages; the gateway no longer gives Baileys that copy when its sealed store keeps at
 * least as many (link/retry-messages.ts), so here the store answers, through `getMessage`. The phone gets the text
 * once, and was asked once.
 */
import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { inbox } from '../../support/system/harness.js'
import { pairedGateway } from '../../support/system/paired-gateway.js'
import { ALICE, BOB, clearFaults, faultWorld, retryReceipts, setFaults } from '../../support/system/faults.js'
import { waitFor } from '../../support/wait-for.js'

describe('a retry receipt while the gateway runs, default settings', () => {
  const paired = pairedGateway(ALICE, {
    start: faultWorld,
    env: { DATA_KEY: randomBytes(32).toString('base64') },
    timeoutMs: 300_000,
  })

  it('is answered from the kept message: the text arrives once, asked for once', async () => {
    const url = paired.sandbox.url
    await setFaults(url, { failDecryptOf: BOB, failDecryptCount: 1 })
    const text = `asked for again while running ${Date.now()}`
    const sent = await paired.gw.call('POST', '/message', paired.session, { phone: BOB, type: 'text', text })
    expect(sent.status).toBe(200)
    const id = sent.body.messageId as string
    const got = await waitFor('the text sent again', async () => (await inbox(url, BOB)).find(m => m.id === id), 60_000)
    expect(got).toMatchObject({ type: 'text', text, from: ALICE })
    expect((await retryReceipts(url))[id]).toBe(1)

    // one more message afterwards; by the time it is in, any second copy of the first would be too
    const after = await paired.gw.call('POST', '/message', paired.session, { phone: BOB, type: 'text', text: 'next' })
    expect(after.status).toBe(200)
    await waitFor(
      'the next message',
      async () => (await inbox(url, BOB)).find(m => m.id === after.body.messageId),
      60_000,
    )
    expect((await inbox(url, BOB)).filter(m => m.id === id)).toHaveLength(1)
    expect(await retryReceipts(url)).toEqual({ [id]: 1 })
    await clearFaults(url)
  }, 300_000)
})
