/**
 * NEW_CHATS_PER_DAY, the operator's own limit below the platform's cap: past it, a session's 1:1 send to someone new
 * is refused as a restriction is (429 `account restricted: …` until midnight UTC, nothing reaches the platform),
 * while its existing chats, and a number that writes to it, go on.
 */
import { describe, expect, it } from 'vitest'
import { headersOf, inbox, sandboxCall } from '../../support/system/harness.js'
import { pairedGateway } from '../../support/system/paired-gateway.js'
import { waitFor } from '../../support/wait-for.js'

const ALICE = '15550000001'
const [BOB, CAROL, DAVE] = ['15550000002', '15550000003', '15550000004']

describe('NEW_CHATS_PER_DAY', () => {
  const paired = pairedGateway(ALICE, { env: { NEW_CHATS_PER_DAY: '2' }, timeoutMs: 180_000 })

  const text = async (phone: string, words: string) => {
    const res = await fetch(`${paired.gw.url}/message`, {
      method: 'POST',
      headers: { ...headersOf(paired.session), 'content-type': 'application/json' },
      body: JSON.stringify({ phone, type: 'text', text: words }),
    })
    return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as any }
  }

  it('refuses the third new chat of the day, until midnight UTC; existing chats and numbers that write go on', async () => {
    expect((await text(BOB, 'first new chat')).status).toBe(200)
    expect((await text(CAROL, 'second new chat')).status).toBe(200)
    const refused = await text(DAVE, 'third new chat')
    const midnight = new Date(Date.now() - (Date.now() % 86_400_000) + 86_400_000).toISOString()
    expect(refused.status).toBe(429)
    expect(refused.body.message).toMatch(
      new RegExp(
        `^account restricted: new chats per day for this session \\(2\\) used up until ${midnight}, retry in \\d+ s$`,
      ),
    )
    expect(Number(refused.retryAfter)).toBeLessThanOrEqual(86_400)
    expect((await inbox(paired.sandbox.url, DAVE)).filter((m: any) => m.text === 'third new chat')).toEqual([])
    expect((await text(BOB, 'an existing chat')).status).toBe(200)

    // Dave writes first: then answering him opens no new chat
    await sandboxCall(paired.sandbox.url, 'POST', `/accounts/${DAVE}/send`, { to: ALICE, text: 'hi Alice' })
    const answered = await waitFor('an answer to Dave', async () => {
      const r = await text(DAVE, 'hi Dave')
      return r.status === 200 ? r : undefined
    })
    expect(answered.status).toBe(200)
  }, 120_000)
})
